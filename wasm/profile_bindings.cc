// wasm/ — the embind surface of the profile exports (core/export/pprof, core/export/otlp) for
// the JS API: `session.profileExport(format, requestJson)` builds the profile and returns a
// ProfileExport whose next(budget) gives the document's next part as a Uint8Array (copied out
// of the heap), or null at the end. pprof leaves uncompressed: Emscripten 3.1.6 has no zlib
// port offline, so JS gzips it (export/pprof/gzip_stream.h). Conversions only.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>

#include "api/profile_request.h"
#include "export/otlp/otlp_writer.h"
#include "export/pprof/pprof_writer.h"
#include "export/profile/profile_builder.h"
#include "trace_session.h"

namespace {

using emscripten::val;

class ProfileExport {
 public:
  // {ok, message}: why the profile could not be built ("" when it was).
  ProfileExport(const nettrace::TraceSession& session, const std::string& format, const std::string& requestJson) {
    nettrace::api::Request request;
    status_ = nettrace::api::ParseJsonRequest(*nettrace::api::FindQuery("export"), requestJson, &request);
    if (status_.ok()) status_ = session.BuildProfile(nettrace::api::ProfileRequestOf(request), &profile_);
    if (!status_.ok()) return;
    stream_ = format == "otlp" ? nettrace::OtlpStream(profile_, "") : nettrace::PprofStream(profile_);
  }
  bool ok() const { return status_.ok(); }
  std::string message() const { return status_.message(); }
  // The next part (at least `budget` bytes unless the document ends), or null after the last.
  val Next(double budget) {
    part_.clear();
    if (!stream_ || !stream_->Next(&part_, static_cast<size_t>(budget))) return val::null();
    const val view(emscripten::typed_memory_view(part_.size(), reinterpret_cast<const uint8_t*>(part_.data())));
    return view.call<val>("slice");  // a JS-owned copy: the heap may grow before it is read
  }

 private:
  nettrace::Status status_;
  nettrace::ProfileData profile_;
  std::unique_ptr<nettrace::ProfileStream> stream_;
  std::string part_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(nettrace_profile) {
  emscripten::class_<ProfileExport>("ProfileExport")
      .constructor<const nettrace::TraceSession&, const std::string&, const std::string&>()
      .function("ok", &ProfileExport::ok)
      .function("message", &ProfileExport::message)
      .function("next", &ProfileExport::Next);
  emscripten::constant("otlpProtoVersion", std::string(nettrace::kOtlpProtoVersion));
}
