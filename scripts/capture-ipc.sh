#!/usr/bin/env bash
# Re-captures tests/data/diag/ipc_capture.txt (the diagnostics-IPC byte sequences of the
# protocol unit tests): builds tests/apps/IpcCapture, installs dotnet-trace 10.0.750501
# into build/tools/, and runs the capture (reference client, dotnet-trace's profiles, a real
# runtime's replies and advertise). Needs the .NET 10 SDK and its NuGet feed.
set -euo pipefail
cd "$(dirname "$0")/.."
dotnet build tests/apps/IpcCapture -c Release -nologo -v q
if [ ! -x build/tools/dotnet-trace ]; then
  dotnet tool install dotnet-trace --version 10.0.750501 --tool-path build/tools
fi
out=tests/data/diag/ipc_capture.txt
{
  echo '# Captured by tests/apps/IpcCapture (scripts/capture-ipc.sh): real diagnostics-IPC messages, one "name hex" per line.'
  dotnet build/apps/bin/IpcCapture/Release/net10.0/IpcCapture.dll /dev/stdout --dotnet-trace build/tools/dotnet-trace
} > "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out"
