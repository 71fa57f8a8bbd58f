#!/usr/bin/env python3
"""Generate core/format/clr_events.generated.{h,cc} from the CLR event manifest.

Runtime events in NetTrace v4/v5 files carry metadata with an empty event name and no
field descriptions (format-pitfalls.md #13), so the reader names and decodes them from
this table. Layouts come from ClrEtwAll.man (dotnet/runtime src/coreclr/vm/ClrEtwAll.man);
names follow TraceEvent (PerfView), because TraceEvent's *.baseline.txt files are our
oracle (traceevent-baselines.md section 2, "EventName rules").

Naming, in order:
  1. TraceEvent names an event by its hand-written template: TaskName when the opcode is
     Info (0) or the opcode name is empty, else "TaskName/OpcodeName".
  2. Task and opcode names are the manifest's message strings (TraceEvent's parser was
     generated from this manifest), with one systematic rule (GC_PREFIX_RULE) and a few
     per-event corrections (TE_OVERRIDES) where TraceEvent's template differs.
  3. Events TraceEvent has no template for are named by their task alone (TE_NO_TEMPLATE;
     objver4 baseline: runtime ids 200/201 count as "GC").
  4. Events, versions and layouts missing from this manifest (it predates .NET 9/10) come
     from clr_newer_events.py, which cites its sources: SUPPLEMENT_EVENTS (with layouts; a
     few REPLACES a manifest entry), TE_NAME_ONLY (TraceEvent templates whose layout we do
     not know) and GC_DYNAMIC_EVENTS (the GC's dynamic events TraceEvent names by their
     Name field; FindGcDynamicEvent). The SampleProfiler's Thread/Sample is a supplement:
     not a manifest provider, but TraceEvent decodes it.
Fields TraceEvent returns as enums name their enum; clr_enum_facts.py says which and how.

The TraceEvent facts below were read (not copied) from these files:
  [TE-R]  ClrTraceEventParser.cs EnumerateTemplates (runtime + rundown parsers), as in
          mrsharm/perfview@62fc9ade and jamescrosswell/perfview@88717c53 (forks of
          microsoft/perfview; their rundown template lists agree), and
          microsoft/perfview@594ddb24 for the older subset.
  [TE-P]  ClrPrivateTraceEventParser.cs EnumerateTemplates, microsoft/perfview@bd127593.
  [TE-G]  GCDynamicTraceEventParser.cs, microsoft/perfview@120e892a.
  [TE-S]  SampleProfilerTraceEventParser.cs, microsoft/perfview@f3ec1b38.
  [BASE]  TraceEvent's baselines in tests/data/*.baseline.txt.
  [TE-NAMES] tests/data/clr-names/traceevent-clr-names.txt: TraceEvent 4.0.0's own EventName for every
          event of the CLR name probe (core/write/clr_name_probe.h: every (provider, id, version)
          of this table, every other id up to 16 past each provider's highest, GC dynamic events
          by Name), written by scripts/oracle.sh. Every name generated here must equal it
          (check_te_names; --check fails otherwise), and so must every id the table leaves to the
          reader's fallback (EventID(N)) and every GC dynamic-event name.
  [MAN+]  A newer ClrEtwAll.man (leculver/runtime@91d3147c, a dotnet/runtime fork), for
          events this manifest lacks; clr_newer_events.py lists its further sources ([MAN9]
          dotnet/runtime@68813511's manifest, [TE-N] microsoft/perfview@f3ec1b38's
          ClrTraceEventParser.cs, [NET10] the .NET 10 traces).

Usage:
  scripts/gen_clr_events.py [MANIFEST]          regenerate the two files
  scripts/gen_clr_events.py --check [MANIFEST]  exit 1 if the committed files differ
Python 3 standard library only.
"""

import argparse
import gzip
import hashlib
import os
import re
import sys
import xml.etree.ElementTree as ET

import clr_enum_facts
from clr_newer_events import (GC_DYNAMIC_EVENTS, GC_DYNAMIC_OPCODE, GC_DYNAMIC_TASK, REPLACES,
                              SUPPLEMENT_EVENTS, TE_NAME_ONLY)

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The manifest as taken from dotnet/runtime, gzip'd (origin in docs/README.md).
DEFAULT_MANIFEST = os.path.join(REPO_ROOT, "docs", "reference", "ClrEtwAll.man.gz")
TE_NAMES = os.path.join(REPO_ROOT, "tests", "data", "clr-names", "traceevent-clr-names.txt")
OUT_H = os.path.join(REPO_ROOT, "core", "format", "clr_events.generated.h")
OUT_CC = os.path.join(REPO_ROOT, "core", "format", "clr_events.generated.cc")
NS = "{http://schemas.microsoft.com/win/2004/08/events}"

# Provider name -> C++ enumerator. The enum order (kRuntime < kRundown < kPrivate < kStress <
# kSampleProfiler) is the table's primary sort key. The SampleProfiler has no manifest; its
# one event is a SUPPLEMENT_EVENTS entry.
PROVIDERS = {
    "Microsoft-Windows-DotNETRuntime": "kRuntime",
    "Microsoft-Windows-DotNETRuntimeRundown": "kRundown",
    "Microsoft-Windows-DotNETRuntimePrivate": "kPrivate",
    "Microsoft-Windows-DotNETRuntimeStress": "kStress",
}
PROVIDER_ORDER = ["kRuntime", "kRundown", "kPrivate", "kStress", "kSampleProfiler"]

# winmeta.xml standard opcodes: value and the name TraceEvent shows
# (traceevent-baselines.md: 1 Start, 2 Stop, 3 DCStart, 4 DCStop, ... 240 Receive).
STANDARD_OPCODES = {
    "win:Info": (0, ""), "win:Start": (1, "Start"), "win:Stop": (2, "Stop"),
    "win:DC_Start": (3, "DCStart"), "win:DC_Stop": (4, "DCStop"),
    "win:Extension": (5, "Extension"), "win:Reply": (6, "Reply"), "win:Resume": (7, "Resume"),
    "win:Suspend": (8, "Suspend"), "win:Send": (9, "Send"), "win:Receive": (240, "Receive"),
}
LEVELS = {"win:LogAlways": 0, "win:Critical": 1, "win:Error": 2, "win:Warning": 3,
          "win:Informational": 4, "win:Verbose": 5}

# Manifest inType -> FieldKind enumerator.
IN_TYPES = {
    "win:UInt8": "kUInt8", "win:Int8": "kInt8", "win:UInt16": "kUInt16", "win:Int16": "kInt16",
    "win:UInt32": "kUInt32", "win:Int32": "kInt32", "win:UInt64": "kUInt64", "win:Int64": "kInt64",
    "win:Float": "kFloat", "win:Double": "kDouble", "win:Boolean": "kBool32",
    "win:Pointer": "kPointer", "win:GUID": "kGuid", "win:UnicodeString": "kUnicodeString",
    "win:AnsiString": "kAnsiString", "win:Binary": "kBinary", "win:SYSTEMTIME": "kSystemTime",
    "win:FILETIME": "kFileTime",
}
HEX_OUT_TYPES = {"win:HexInt8", "win:HexInt16", "win:HexInt32", "win:HexInt64"}

# ---------------------------------------------------------------------------------------
# TraceEvent naming data. Keys are (provider enumerator, event id); every key must exist in
# the manifest (checked), so a manifest update that moves an event fails loudly.

# GC_PREFIX_RULE: TraceEvent's GC-task opcode names drop the "GC" prefix of the manifest's
# opcode messages: GCBulkRootEdge -> BulkRootEdge, GCBulkMovedObjectRanges ->
# BulkMovedObjectRanges, GCGenerationRange -> GenerationRange, GCSampledObjectAllocation ->
# SampledObjectAllocation, GCJoin -> Join (runtime ids 16-23, 32, 36-38, 203) [TE-R];
# "GC/BulkMovedObjectRanges" and "GC/GenerationRange" appear in the objver4 baseline [BASE].
GC_PREFIX_RULE_TASK = "GC"

# Per-event corrections: (task or None, opcode name or None); None keeps the derived name.
TE_OVERRIDES = {
    # A dynamic event TraceEvent has no template for is "GC/DynamicTraceEvent" [TE-NAMES].
    ("kRuntime", 39): (None, "DynamicTraceEvent"),
    # Manifest message "DCEndCompleteV2"; TraceEvent says DCStopCompleteV2 [TE-R].
    ("kRuntime", 136): (None, "DCStopCompleteV2"),
    # The manifest reuses the MethodLoad opcode (33, "Load") for these two [TE-R][BASE].
    ("kRuntime", 159): (None, "R2RGetEntryPoint"),
    ("kRuntime", 160): (None, "R2RGetEntryPointStart"),
    # The ANSI variant shares opcode JitInliningFailed with id 192 [TE-R].
    ("kRuntime", 186): (None, "InliningFailedAnsi"),
    # Manifest message "MethodILToNativeMap" [TE-R]; baselines doc lists Method/ILToNativeMap.
    ("kRuntime", 190): (None, "ILToNativeMap"),
    # Manifest opcode GCMarkWithType has message "Mark" [TE-R][BASE: GC/MarkWithType].
    ("kRuntime", 202): (None, "MarkWithType"),
    # EventSource (270) has no task in the manifest; TraceEvent calls it EventSourceEvent [TE-R].
    ("kRuntime", 270): ("EventSourceEvent", ""),
    # Manifest uses win:Start / win:Stop; TraceEvent names the opcodes explicitly [TE-R].
    ("kRuntime", 283): (None, "BackgroundJitStart"),
    ("kRuntime", 284): (None, "BackgroundJitStop"),
    # Verbose variant gets its own task name in TraceEvent [TE-R].
    ("kRuntime", 298): ("JitInstrumentationDataVerbose", None),
    # Rundown IL maps: manifest "MethodDCStartILToNativeMap"/"MethodDCEndILToNativeMap" [TE-R].
    ("kRundown", 149): (None, "ILToNativeMapDCStart"),
    ("kRundown", 150): (None, "ILToNativeMapDCStop"),
    # Manifest task message "TieredCompilation"; TraceEvent's rundown task is
    # TieredCompilationRundown [TE-R].
    ("kRundown", 280): ("TieredCompilationRundown", None),
    # TraceEvent's FailFast template has an empty opcode name -> EventName "FailFast" [TE-P].
    ("kPrivate", 191): (None, ""),
    ("kPrivate", 193): (None, "CCWRefCountChangeAnsi"),  # [TE-P]
    # The manifest's message keeps the typo "DestoryGCHandle"; the private template fixes it
    # (the runtime provider's template, id 31, keeps the typo) [TE-P][TE-R].
    ("kPrivate", 195): (None, "DestroyGCHandle"),
    ("kPrivate", 310): (None, "AllocRequest"),  # manifest "LoaderHeapAllocRequest" [TE-P]
}

# Events in the manifest that TraceEvent has no template for: TraceEvent names them
# "EventID(<id>)" [TE-NAMES] (objver4's original baseline, made where Windows had the manifest
# registered, said "GC" for 200/201 [BASE]; TraceEvent 4.0.0 on EventPipe says EventID(200)).
# Runtime: absent from the runtime template list [TE-R] (191, the non-ANSI TailCallFailed, too:
# TraceEvent maps only 189). Rundown 160/161 (ModuleRange) [TE-R]. Private 26, 197 [TE-P].
TE_NO_TEMPLATE = {
    "kRuntime": {40, 41, 42, 43, 48, 49, 158, 191, 200, 201, 240, 241, 242, 243},
    "kRundown": {160, 161},
    "kPrivate": {26, 197},
    "kStress": set(),
}

# ---------------------------------------------------------------------------------------


class GenError(Exception):
    pass


def local(tag):
    return tag[len(NS):] if tag.startswith(NS) else tag


def load_manifest(path):
    with open(path, "rb") as f:
        raw = f.read()
    if path.endswith(".gz"):
        raw = gzip.decompress(raw)
    root = ET.fromstring(raw)
    strings = {s.get("id"): s.get("value") for s in root.iter(NS + "string")}

    def message(ref):
        m = re.fullmatch(r"\$\(string\.(.*)\)", ref or "")
        if not m:
            return ref or ""
        if m.group(1) not in strings:
            raise GenError("missing string " + m.group(1))
        return strings[m.group(1)]

    return raw, root, message


def parse_fields(template_el):
    """Flattened field list (each struct immediately followed by its members) and the
    number of top-level fields. Entries: name, kind, hex, countRef (count=/length= text or
    None), map (the manifest map= or None), nested (inside a struct); structs also carry
    members (indexes) and first (index of the first member)."""
    fields = []
    top = []

    def add(el, nested):
        tag = local(el.tag)
        name = el.get("name")
        if tag == "struct":
            entry = {"name": name, "kind": "kStruct", "hex": False, "countRef": el.get("count"),
                     "members": [], "map": None, "nested": nested}
            fields.append(entry)
            index = len(fields) - 1
            for member in el:
                if local(member.tag) in ("data", "struct"):
                    entry["members"].append(add(member, True))
            entry["first"] = index + 1
            return index
        in_type = el.get("inType")
        if in_type not in IN_TYPES:
            raise GenError("unknown inType %s for %s" % (in_type, name))
        kind = IN_TYPES[in_type]
        hexed = kind == "kPointer" or el.get("outType") in HEX_OUT_TYPES
        # Binary blobs name their size with length=, arrays with count=.
        count_ref = el.get("length") if kind == "kBinary" else el.get("count")
        fields.append({"name": name, "kind": kind, "hex": hexed, "countRef": count_ref,
                       "map": el.get("map"), "nested": nested})
        return len(fields) - 1

    for child in template_el:
        if local(child.tag) in ("data", "struct"):
            top.append(add(child, False))
    return fields, len(top)


def resolve_counts(fields, where):
    """Turn count=/length= references into countField / fixedCount; each entry's "enum"
    (TraceEvent's enum name or None, see assign_enums) is carried along."""
    out = []
    for i, f in enumerate(fields):
        ref = f["countRef"]
        count_field, fixed = -1, 0
        if ref is not None:
            if ref.isdigit():
                fixed = int(ref)
            else:
                # The count field precedes the array, at its own nesting level or above.
                matches = [j for j in range(i) if fields[j]["name"] == ref]
                if not matches:
                    raise GenError("%s: count field %s not found" % (where, ref))
                count_field = matches[-1]
        first = f.get("first", 0)  # 0 for non-structs, as the header documents
        child_count = len(f.get("members", []))
        if child_count and f["members"] != list(range(first, first + child_count)):
            raise GenError("%s: struct members are not contiguous" % where)
        out.append((f["name"], f["kind"], f["hex"], count_field, fixed, first, child_count,
                    f.get("enum")))
    return out


def assign_enums(flat, prov, eid, resolver, has_template):
    for f in flat:
        f["enum"] = resolver.field_enum(prov, eid, f["name"], f["map"], f["nested"], has_template)
    return flat


def supplement_fields(spec, depth=0):
    """A clr_newer_events field list flattened as parse_fields does: each struct followed by
    its members, count references by name."""
    flat = []

    def add(field, nested):
        if field[1] == "struct":
            name, _, count_ref, members = field
            entry = {"name": name, "kind": "kStruct", "hex": False, "countRef": count_ref,
                     "members": [], "map": None, "nested": nested}
            flat.append(entry)
            index = len(flat) - 1
            for m in members:
                entry["members"].append(add(m, True))
            entry["first"] = index + 1
            return index
        name, in_type, out_type = field[:3]
        kind = IN_TYPES[in_type]
        flat.append({"name": name, "kind": kind, "hex": kind == "kPointer" or out_type in HEX_OUT_TYPES,
                     "countRef": None, "map": field[3] if len(field) > 3 else None, "nested": nested})
        return len(flat) - 1

    for field in spec:
        add(field, False)
    return flat, len(spec)


def te_opcode_name(task_message, opcode_message):
    if task_message == GC_PREFIX_RULE_TASK and re.match(r"GC[A-Z]", opcode_message):
        return opcode_message[2:]
    return opcode_message


def build_events(root, message, resolver):
    events = []
    manifest_ids = set()
    manifest_versions = set()
    for prov_el in root.iter(NS + "provider"):
        prov = PROVIDERS.get(prov_el.get("name"))
        if prov is None:
            raise GenError("unexpected provider " + prov_el.get("name"))
        keywords = {k.get("name"): int(k.get("mask"), 16) for k in prov_el.iter(NS + "keyword")}
        tasks = {}
        for t in prov_el.iter(NS + "task"):
            opcodes = {o.get("name"): (int(o.get("value")), message(o.get("message")))
                       for o in t.iter(NS + "opcode")}
            tasks[t.get("name")] = (message(t.get("message")), opcodes)
        templates = {t.get("tid"): t for t in prov_el.iter(NS + "template")}
        for e in prov_el.iter(NS + "event"):
            eid, ver = int(e.get("value")), int(e.get("version", "0"))
            manifest_ids.add((prov, eid))
            manifest_versions.add((prov, eid, ver))
            if (prov, eid, ver) in REPLACES:
                if REPLACES[(prov, eid, ver)] != e.get("symbol"):
                    raise GenError("REPLACES %s %d v%d: the manifest has %s there now" % (
                        prov, eid, ver, e.get("symbol")))
                continue
            task_msg, task_ops = tasks.get(e.get("task"), ("", {}))
            op = e.get("opcode")
            if op is None:
                op_value, op_msg = 0, ""
            elif op in STANDARD_OPCODES:
                op_value, op_msg = STANDARD_OPCODES[op]
            elif op in task_ops:
                op_value, op_msg = task_ops[op]
            else:
                raise GenError("event %s: unknown opcode %s" % (e.get("symbol"), op))
            kw = 0
            for k in (e.get("keywords") or "").split():
                if k not in keywords:
                    raise GenError("event %s: unknown keyword %s" % (e.get("symbol"), k))
                kw |= keywords[k]
            task, op_name = task_msg, te_opcode_name(task_msg, op_msg)
            if (prov, eid) in TE_OVERRIDES:
                o_task, o_op = TE_OVERRIDES[(prov, eid)]
                task = task if o_task is None else o_task
                op_name = op_name if o_op is None else o_op
            if eid in TE_NO_TEMPLATE[prov]:
                task, op_name = "EventID(%d)" % eid, ""  # TraceEvent's name without a template
            where = "%s v%d" % (e.get("symbol"), ver)
            fields, top = [], 0
            if e.get("template"):
                flat, top = parse_fields(templates[e.get("template")])
                assign_enums(flat, prov, eid, resolver, eid not in TE_NO_TEMPLATE[prov])
                fields = resolve_counts(flat, where)
            events.append({
                "prov": prov, "id": eid, "ver": ver, "opcode": op_value,
                "level": LEVELS[e.get("level", "win:Informational")], "kw": kw, "task": task,
                "opname": op_name, "symbol": e.get("symbol"), "fields": fields, "top": top,
                "known": True})

    for (prov, eid) in list(TE_OVERRIDES) + [(p, i) for p, s in TE_NO_TEMPLATE.items() for i in s]:
        if (prov, eid) not in manifest_ids:
            raise GenError("override for %s %d: event not in the manifest" % (prov, eid))
    for key in REPLACES:
        if key not in manifest_versions:
            raise GenError("REPLACES %s %d v%d: not in the manifest" % key)
    for (prov, eid, ver, op, level, kw, task, op_name, symbol, spec) in SUPPLEMENT_EVENTS:
        if (prov, eid, ver) in manifest_versions and (prov, eid, ver) not in REPLACES:
            raise GenError("supplement %s %d v%d is now in the manifest: drop it" % (prov, eid, ver))
        flat, top = supplement_fields(spec)
        assign_enums(flat, prov, eid, resolver, True)
        events.append({"prov": prov, "id": eid, "ver": ver, "opcode": op, "level": level,
                       "kw": kw, "task": task, "opname": op_name, "symbol": symbol,
                       "fields": resolve_counts(flat, symbol), "top": top, "known": True})
        manifest_ids.add((prov, eid))
    for (prov, eid, op, task, op_name) in TE_NAME_ONLY:
        if (prov, eid) in manifest_ids:
            raise GenError("name-only %s %d has a manifest layout now: drop it" % (prov, eid))
        events.append({"prov": prov, "id": eid, "ver": 0, "opcode": op, "level": 0, "kw": 0,
                       "task": task, "opname": op_name, "symbol": "", "fields": [], "top": 0,
                       "known": False})

    for ev in events:
        # traceevent-baselines.md section 2: TaskName when the opcode is Info (0) or has no
        # name, else TaskName/OpcodeName.
        if ev["opcode"] == 0:
            ev["opname"] = ""
        ev["name"] = ev["task"] + ("/" + ev["opname"] if ev["opname"] else "")
        if not ev["name"]:
            raise GenError("event %s %d has no name" % (ev["prov"], ev["id"]))
    events.sort(key=lambda ev: (PROVIDER_ORDER.index(ev["prov"]), ev["id"], ev["ver"]))
    for a, b in zip(events, events[1:]):
        if (a["prov"], a["id"], a["ver"]) == (b["prov"], b["id"], b["ver"]):
            raise GenError("duplicate event %s %d v%d" % (a["prov"], a["id"], a["ver"]))
    return events


def build_gc_dynamic(resolver):
    """TraceEvent's GC dynamic-event templates: Data's fields, named after Name."""
    out = []
    for (name, te_id, spec) in GC_DYNAMIC_EVENTS:
        flat, top = supplement_fields(spec)
        assign_enums(flat, "kRuntime", te_id, resolver, True)
        # GcDynamicDataSize in the generated code computes the same.
        size = sum({"kUInt8": 1, "kInt8": 1, "kInt16": 2, "kUInt16": 2, "kInt32": 4, "kUInt32": 4,
                    "kFloat": 4, "kBool32": 4}.get(f["kind"], 8) for f in flat)
        if any(f["kind"] in ("kStruct", "kUnicodeString", "kAnsiString", "kBinary", "kGuid") for f in flat):
            raise GenError("GC dynamic event %s: only fixed-size scalar fields are supported" % name)
        out.append({"prov": "kRuntime", "id": te_id, "ver": 0, "opcode": GC_DYNAMIC_OPCODE, "dataSize": size,
                    "level": 0, "kw": 0, "task": GC_DYNAMIC_TASK, "opname": name,
                    "name": GC_DYNAMIC_TASK + "/" + name, "symbol": name,
                    "fields": resolve_counts(flat, name), "top": top, "known": True})
    return out


def load_te_names(path):
    """[TE-NAMES]: {(provider enumerator, id, version, "Name:DataSize" or ""): EventName}."""
    by_name = dict(PROVIDERS)
    by_name["Microsoft-DotNETCore-SampleProfiler"] = "kSampleProfiler"
    names = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            provider, eid, ver, dynamic, name = line.rstrip("\n").split("\t")
            names[(by_name[provider], int(eid), int(ver), dynamic)] = name
    return names


def check_te_names(events, dynamic, te_names):
    """Every name the reader gives a probe event (table entry, the EventID(N) fallback, GC dynamic
    event by Name and DataSize) equals TraceEvent's [TE-NAMES]."""
    table = {(ev["prov"], ev["id"], ev["ver"]): ev["name"] for ev in events}
    ids = {(ev["prov"], ev["id"]) for ev in events}
    templates = {ev["opname"].lower(): ev for ev in dynamic}
    wrong = []
    for (prov, eid, ver, dyn), te in sorted(te_names.items()):
        if dyn:
            name, size = dyn.rsplit(":", 1)
            t = templates.get(name.lower())
            ours = t["name"] if t and int(size) >= t["dataSize"] else table[(prov, eid, ver)]
        elif (prov, eid, ver) in table:
            ours = table[(prov, eid, ver)]
        elif prov == "kSampleProfiler" or (prov, eid) in ids:
            continue  # the SampleProfiler is named by the reader (unit test); a version we lack
        else:
            ours = "EventID(%d)" % eid
        if ours != te:
            wrong.append("%s %d v%d %s: ours %s, TraceEvent %s" % (prov, eid, ver, dyn, ours, te))
    missing = [k for k in table if k + ("",) not in te_names]
    if missing:
        wrong.append("not asked of TraceEvent (rerun scripts/oracle.sh --update): %s" % missing[:5])
    if wrong:
        raise GenError("names differ from TraceEvent's (%s):\n  %s" % (
            os.path.relpath(TE_NAMES, REPO_ROOT), "\n  ".join(wrong)))


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


HEADER_TEXT = """\
// Generated by scripts/gen_clr_events.py from ClrEtwAll.man (sha256 {sha}).
// DO NOT EDIT: change the script (or the manifest) and regenerate.
//
// core/format — the CLR providers' event table: TraceEvent's (PerfView's) event names and the
// manifest's payload layouts, by (provider, event id, version). NetTrace v4/v5 runtime events
// carry no name and no field descriptions (format-pitfalls.md #13); this table supplies both,
// and for fields TraceEvent shows by name, TraceEvent's enum (format/payload/clr_enums.h
// renders them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace nettrace::clr {{

// kSampleProfiler: Microsoft-DotNETCore-SampleProfiler, whose Thread/Sample payload has no
// description in the trace either.
enum class Provider : uint8_t {{ kNone, kRuntime, kRundown, kPrivate, kStress, kSampleProfiler }};

// Which provider name is which of these: format/provider_family.h (ClrProviderOf).

// Payload field kinds, from the manifest's inType. kPointer is pointer-sized (trace header);
// kBool32 is 4 bytes; kUnicodeString / kAnsiString are NUL-terminated; kBinary's length is in
// countField; kStruct is followed by its members.
enum class FieldKind : uint8_t {{
  kUInt8, kInt8, kUInt16, kInt16, kUInt32, kInt32, kUInt64, kInt64, kFloat, kDouble, kBool32,
  kPointer, kGuid, kUnicodeString, kAnsiString, kBinary, kSystemTime, kFileTime, kStruct,
}};

struct EnumMember {{
  int64_t value;  // as declared (GCPauseMode.Invalid is -1)
  const char* name;
}};

// How TraceEvent turns a field's raw value into the enum value it shows.
enum class EnumRead : uint8_t {{
  kValue,         // the value itself
  kMasked,        // value & readParam (MethodFlags without the tier and extent bits)
  kLowestSetBit,  // a one-hot mask: the index of its lowest set bit when < readParam, else
                  // readFallback (also for 0)
}};

// A .NET enum type as TraceEvent declares it.
struct EnumInfo {{
  const char* name;           // TraceEvent's type name, e.g. "GCReason"
  bool flags;                 // [Flags]: Enum.ToString() joins member names
  bool isSigned;              // underlying int (else uint)
  uint8_t size;               // underlying type's size in bytes
  EnumRead read;
  uint32_t readParam;
  int32_t readFallback;
  const EnumMember* members;  // ascending by value as unsigned storage (.NET's order)
  uint16_t memberCount;
}};

struct Field {{
  const char* name;
  FieldKind kind;
  bool hex;              // outType win:HexInt32/HexInt64, or a pointer: display as hex
  int16_t countField;    // index (same Field array) of the element count / binary length, else -1
  uint16_t fixedCount;   // count="N" literal, else 0
  uint16_t firstChild;   // kStruct: index of its first member in the same Field array...
  uint16_t childCount;   // ...and how many members follow it
  const EnumInfo* enumType;  // TraceEvent returns the field as this enum, else nullptr
}};

struct EventInfo {{
  Provider provider;
  uint16_t id;
  uint8_t version;
  uint8_t opcode;
  uint8_t level;
  uint64_t keywords;
  const char* task;        // TraceEvent's task name, e.g. "GC"
  const char* opcodeName;  // TraceEvent's opcode name, "" for Info or when TraceEvent has no template
  const char* name;        // TraceEvent's EventName: "GC/Start", "GC" (no template), "Method/LoadVerbose"
  const char* symbol;      // manifest symbol, e.g. "GCStart_V2"; "" for name-only entries
  const Field* fields;     // nullptr when fieldCount == 0
  uint16_t fieldCount;     // top-level + nested (a struct's members follow the struct)
  uint16_t topLevelFieldCount;
  bool layoutKnown;        // false: TraceEvent names this id but we hold no payload layout
}};

// The template for (provider, id, version): the entry with that exact version, else the
// highest version below it, else the lowest above it; nullptr when the id is unknown.
const EventInfo* FindEvent(Provider provider, uint32_t id, uint32_t version);

// All entries, sorted by (provider, id, version), for tests and tools.
const EventInfo* AllEvents(size_t* count);

// The GC's dynamic events: the runtime writes each as GCDynamicEvent (runtime id 39: Name,
// DataSize, Data, ClrInstanceID); TraceEvent renames the event after Name and shows the
// fields of Data. The template for a Name (ASCII case ignored, as TraceEvent does), whose id
// is TraceEvent's for it and whose fields are Data's; nullptr when TraceEvent has none.
inline constexpr uint32_t kGcDynamicEventId = 39;
const EventInfo* FindGcDynamicEvent(std::string_view name);
// Every GC dynamic-event template, for tests and tools.
const EventInfo* AllGcDynamicEvents(size_t* count);
// The Data bytes a dynamic-event template reads: TraceEvent takes the template only when the
// event's DataSize is at least this, else names the event generically.
uint32_t GcDynamicDataSize(const EventInfo& e);

// The enums fields refer to, sorted by name; FindEnum: by TraceEvent's type name, or nullptr.
const EnumInfo* AllEnums(size_t* count);
const EnumInfo* FindEnum(std::string_view name);

}}  // namespace nettrace::clr
"""

CC_PROLOGUE = """\
// Generated by scripts/gen_clr_events.py from ClrEtwAll.man (sha256 {sha}).
// DO NOT EDIT: change the script (or the manifest) and regenerate.
// {events} entries, {arrays} distinct field lists, {fields} field rows, {enums} enums.
#include "format/clr_events.generated.h"

namespace nettrace::clr {{
namespace {{

using K = FieldKind;
using P = Provider;
using R = EnumRead;

"""

CC_EPILOGUE = """\
constexpr size_t kEventCount = sizeof(kEvents) / sizeof(kEvents[0]);
constexpr size_t kEnumCount = sizeof(kEnums) / sizeof(kEnums[0]);

bool LessKey(const EventInfo& e, Provider p, uint32_t id) {
  return e.provider != p ? e.provider < p : e.id < id;
}

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (Lower(a[i]) != Lower(b[i])) return false;
  return true;
}

}  // namespace

const EventInfo* FindEvent(Provider provider, uint32_t id, uint32_t version) {
  // Binary search for the first entry with this (provider, id); versions follow in order.
  size_t lo = 0, hi = kEventCount;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (LessKey(kEvents[mid], provider, id)) lo = mid + 1;
    else hi = mid;
  }
  if (lo == kEventCount || kEvents[lo].provider != provider || kEvents[lo].id != id) return nullptr;
  const EventInfo* best = &kEvents[lo];  // lowest version: the answer when all are above
  for (size_t i = lo; i < kEventCount && kEvents[i].provider == provider && kEvents[i].id == id; ++i) {
    if (kEvents[i].version > version) break;
    best = &kEvents[i];  // highest version <= requested so far
  }
  return best;
}

const EventInfo* AllEvents(size_t* count) {
  if (count) *count = kEventCount;
  return kEvents;
}

const EventInfo* FindGcDynamicEvent(std::string_view name) {
  for (const EventInfo& e : kGcDynamicEvents)
    if (EqualsIgnoreCase(name, e.opcodeName)) return &e;
  return nullptr;
}

const EventInfo* AllGcDynamicEvents(size_t* count) {
  if (count) *count = sizeof(kGcDynamicEvents) / sizeof(kGcDynamicEvents[0]);
  return kGcDynamicEvents;
}

uint32_t GcDynamicDataSize(const EventInfo& e) {
  uint32_t size = 0;
  for (uint16_t i = 0; i < e.fieldCount; ++i) {
    switch (e.fields[i].kind) {
      case FieldKind::kUInt8: case FieldKind::kInt8: size += 1; break;
      case FieldKind::kUInt16: case FieldKind::kInt16: size += 2; break;
      case FieldKind::kUInt32: case FieldKind::kInt32: case FieldKind::kFloat: case FieldKind::kBool32: size += 4; break;
      default: size += 8; break;  // the dynamic templates' other fields are 8-byte scalars
    }
  }
  return size;
}

const EnumInfo* AllEnums(size_t* count) {
  if (count) *count = kEnumCount;
  return kEnums;
}

const EnumInfo* FindEnum(std::string_view name) {
  for (const EnumInfo& e : kEnums)
    if (name == e.name) return &e;
  return nullptr;
}

}  // namespace nettrace::clr
"""


def render_enums(enums):
    """The kEnums table and its member lists; returns (lines, {enum name: index})."""
    lines = ["// TraceEvent's enum types of payload fields (scripts/clr_enum_facts.py), sorted by name.",
             "// Members {value, name} ascending by value as unsigned storage, as .NET orders them."]
    index = {}
    for i, e in enumerate(enums):
        index[e["name"]] = i
        lines.append("constexpr EnumMember kE%d[] = {" % i)
        for value, name in e["members"]:
            lines.append("    {%d, %s}," % (value, c_str(name)))
        lines.append("};")
    lines.append("constexpr EnumInfo kEnums[] = {")
    lines.append("    // {name, flags, isSigned, size, read, readParam, readFallback, members, memberCount}")
    for i, e in enumerate(enums):
        read, param, fallback = e["read"]
        lines.append("    {%s, %s, %s, %d, R::%s, 0x%x, %d, kE%d, %d}," % (
            c_str(e["name"]), "true" if e["flags"] else "false", "true" if e["signed"] else "false",
            e["size"], read, param, fallback, i, len(e["members"])))
    lines.append("};")
    return lines, index


def render(events, dynamic, enums, sha):
    enum_lines, enum_index = render_enums(enums)
    arrays = {}  # field tuple -> array name
    array_lines = ["", "// Field lists, shared by every event version with the same layout.",
                   "// {name, kind, hex, countField, fixedCount, firstChild, childCount, enumType}"]
    for ev in events + dynamic:
        key = tuple(ev["fields"])
        if not key or key in arrays:
            continue
        name = "kF%d" % len(arrays)
        arrays[key] = name
        array_lines.append("constexpr Field %s[] = {" % name)
        for (fname, kind, hexed, cf, fixed, first, children, enum) in key:
            array_lines.append("    {%s, K::%s, %s, %d, %d, %d, %d, %s}," % (
                c_str(fname), kind, "true" if hexed else "false", cf, fixed, first, children,
                "&kEnums[%d]" % enum_index[enum] if enum else "nullptr") + ("  // " + enum if enum else ""))
        array_lines.append("};")
    event_lines = []
    for title, table, rows in (
            ("// Sorted by (provider, id, version): FindEvent binary-searches it.", "kEvents", events),
            ("// GC dynamic events by Name (FindGcDynamicEvent): TraceEvent's ids and Data's fields.",
             "kGcDynamicEvents", dynamic)):
        event_lines += ["", title, "constexpr EventInfo %s[] = {" % table]
        event_lines += [event_row(ev, arrays) for ev in rows]
        event_lines.append("};")
    total_fields = sum(len(k) for k in arrays)
    cc = (CC_PROLOGUE.format(sha=sha, events=len(events), arrays=len(arrays), fields=total_fields,
                             enums=len(enums))
          + "\n".join(enum_lines + array_lines + event_lines) + "\n\n" + CC_EPILOGUE)
    return HEADER_TEXT.format(sha=sha), cc


def event_row(ev, arrays):
    key = tuple(ev["fields"])
    return ("    {P::%s, %d, %d, %d, %d, 0x%x, %s, %s, %s, %s, %s, %d, %d, %s}," % (
            ev["prov"], ev["id"], ev["ver"], ev["opcode"], ev["level"], ev["kw"],
            c_str(ev["task"]), c_str(ev["opname"]), c_str(ev["name"]), c_str(ev["symbol"]),
            arrays[key] if key else "nullptr", len(key), ev["top"],
            "true" if ev["known"] else "false"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("manifest", nargs="?", default=DEFAULT_MANIFEST)
    ap.add_argument("--check", action="store_true",
                    help="regenerate in memory; exit 1 if the committed files differ")
    args = ap.parse_args()
    try:
        raw, root, message = load_manifest(args.manifest)
        resolver = clr_enum_facts.EnumResolver(clr_enum_facts.load_maps(root, message))
        events = build_events(root, message, resolver)
        dynamic = build_gc_dynamic(resolver)
        resolver.use_unattached()
        resolver.check_all_used()
        check_te_names(events, dynamic, load_te_names(TE_NAMES))
    except (OSError, ET.ParseError, GenError, clr_enum_facts.EnumError) as e:
        print("gen_clr_events: %s" % e, file=sys.stderr)
        return 2
    h, cc = render(events, dynamic, resolver.enums(), hashlib.sha256(raw).hexdigest())
    outputs = [(OUT_H, h), (OUT_CC, cc)]
    if args.check:
        stale = []
        for path, text in outputs:
            try:
                with open(path, encoding="utf-8", newline="") as f:
                    if f.read() == text:
                        continue
            except OSError:
                pass
            stale.append(os.path.relpath(path, REPO_ROOT))
        if stale:
            print("gen_clr_events: out of date: %s (run scripts/gen_clr_events.py)"
                  % ", ".join(stale), file=sys.stderr)
            return 1
        return 0
    for path, text in outputs:
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    print("gen_clr_events: %d events -> %s, %s" % (
        len(events), os.path.relpath(OUT_H, REPO_ROOT), os.path.relpath(OUT_CC, REPO_ROOT)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
