"""TraceEvent's enum types for CLR payload fields, for gen_clr_events.py.

TraceEvent (our reference, traceevent-baselines.md) returns some payload fields as .NET enums,
so its PayloadString / ToString show them by name: Reason=AllocSmall, flags joined
"Compaction, CardBundles". The generated table records, per field, which enum TraceEvent uses;
core/format/payload/clr_enums.cc renders a value the way .NET's Enum.ToString() does.

Where the enums come from, in order:
  1. A field with map="XMap" in the manifest uses the manifest's valueMap/bitMap XMap; TraceEvent
     names its enum X (MAP_SUFFIX) and declares a bitMap's enum [Flags]. Maps of the same name
     in several providers are merged by value.
  2. TraceEvent's enum differs from the map: NONE_RULE (its [Flags] enums built from a bitMap
     have None = 0) and MEMBER_CHANGES (renamed, added or missing members).
  3. Enums TraceEvent declares for fields the manifest gives no map: TE_ONLY_ENUMS, assigned by
     FIELD_ENUMS. Fields that have a map but that TraceEvent returns as plain integers:
     FIELD_NOT_ENUM. Events TraceEvent has no template for (TE_NO_TEMPLATE) and members of
     struct arrays (TraceEvent exposes no per-element payload field) get no enum.
  4. READS: enums TraceEvent derives from the raw field value rather than casting it.

The TraceEvent facts were read (not copied) from microsoft/perfview@f3ec1b38:
  [TE-E]  src/TraceEvent/Parsers/ClrTraceEventParser.cs, the enums after the templates and the
          typed properties of each *TraceData class.
  [TE-PE] src/TraceEvent/Parsers/ClrPrivateTraceEventParser.cs, its enums (NGenBind,
          ModuleRangeType, ModuleRangeIBCType, ModuleRangeSectionType).
  [TE-S]  src/TraceEvent/EventPipe/SampleProfilerTraceEventParser.cs, enum ClrThreadSampleType.
  [TE-T]  src/TraceEvent/Parsers/TplTraceEventParser.cs, enum TaskWaitBehavior and
          TaskWaitSendArgs.Behavior.
Python 3 standard library only.
"""

import re

NS = "{http://schemas.microsoft.com/win/2004/08/events}"

# TraceEvent's enum for manifest map "XMap" is "X" (every map a TraceEvent-typed field uses).
MAP_SUFFIX = "Map"

# Underlying types other than int [TE-E]: enum TieredCompilationSettingsFlags : uint.
UNDERLYING = {"TieredCompilationSettingsFlags": "uint"}

# NONE_RULE: TraceEvent's [Flags] enums made from a bitMap add "None = 0" when the map has no
# 0 member [TE-E enums AppDomainFlags, AssemblyFlags, ModuleFlags, MethodFlags, StartupMode,
# RuntimeSku, ExceptionThrownFlags, ILStubGeneratedFlags, StartupFlags] [TE-PE enums
# ModuleRangeType, ModuleRangeIBCType].
NONE_NAME = "None"

# Per-enum corrections: value -> TraceEvent's member name (a rename or a member the manifest
# lacks), or None for a manifest member TraceEvent's enum does not have.
MEMBER_CHANGES = {
    # [TE-E] enum GCReason: shorter names for 5-8 and members newer than this manifest.
    "GCReason": {0x5: "OutOfSpaceSOH", 0x6: "OutOfSpaceLOH", 0x7: "InducedNotForced",
                 0x8: "Internal", 0xa: "InducedCompacting", 0xb: "LowMemoryHost",
                 0xc: "PMFullGC", 0xd: "LowMemoryHostBlocking"},
    "AssemblyFlags": {0x10: "ReadyToRun"},               # [TE-E] enum AssemblyFlags
    "RuntimeSku": {0x4: "Mono"},                         # [TE-E] enum RuntimeSku
    "GCAllocationKind": {0x2: "Pinned"},                 # [TE-E] enum GCAllocationKind
    "GCSegmentType": {0x3: "PinnedObjectHeap"},          # [TE-E] enum GCSegmentType
    "GCHandleKind": {-0x7: "DependendAsyncPinned"},      # [TE-E] enum GCHandleKind (sic)
    "TailCallType": {-1: "Unknown"},                     # [TE-E] enum TailCallType
    "ThreadAdjustmentReason": {0x8: "CooperativeBlocking"},  # [TE-E] enum ThreadAdjustmentReason
    # [TE-E] enum TieredCompilationSettingsFlags
    "TieredCompilationSettingsFlags": {0x4: "TieredPGO", 0x8: "ReadyToRun"},
    "ILStubGeneratedFlags": {0x40: None},                # [TE-E] enum ILStubGeneratedFlags: no StructMarshal
}

# Enums for fields the manifest gives no map: name -> (flags, underlying, [(value, name)]).
TE_ONLY_ENUMS = {
    "ClrThreadSampleType": (False, "int", [(0, "Error"), (1, "External"), (2, "Managed")]),  # [TE-S]
    # [TE-E] enum BucketKind, for GCFitBucketInfo (the manifest's GCBucketKindMap is newer
    # than ours).
    "BucketKind": (False, "int", [(0, "LargestFreeListItems"), (1, "PlugsInCondemned")]),
    # [TE-E] enum WaitHandleWaitSource, WaitHandleWaitStartTraceData.WaitSource.
    "WaitHandleWaitSource": (False, "int", [(0, "Unknown"), (1, "MonitorWait")]),
    # [TE-T] enum TaskWaitBehavior (UNATTACHED).
    "TaskWaitBehavior": (False, "int", [(1, "Synchronous"), (2, "Asynchronous")]),
    "GCGlobalMechanisms": (True, "int", [  # [TE-E] enum GCGlobalMechanisms, [Flags]
        (0x0, "None"), (0x1, "Concurrent"), (0x2, "Compaction"), (0x4, "Promotion"),
        (0x8, "Demotion"), (0x10, "CardBundles")]),
    "GCPauseMode": (False, "int", [  # [TE-E] enum GCPauseMode
        (-1, "Invalid"), (0, "Batch"), (1, "Interactive"), (2, "LowLatency"),
        (3, "SustainedLowLatency"), (4, "NoGC")]),
    "GCSettingsFlags": (True, "int", [  # [TE-E] enum GCSettingsFlags, [Flags], no 0 member
        (0x1, "GCSettingsConcurrent"), (0x2, "GCSettingsLargePages"), (0x4, "GCSettingsFrozenSegs"),
        (0x8, "GCSettingsHardLimitConfig"), (0x10, "GCSettingsNoAffinitize")]),
    "GcJoinTime": (False, "int", [(0, "Start"), (1, "End")]),  # [TE-E] enum GcJoinTime
    "GcJoinType": (False, "int", [  # [TE-E] enum GcJoinType
        (0, "LastJoin"), (1, "Join"), (2, "Restart"), (3, "FirstJoin")]),
    "NGenBind": (False, "int", list(enumerate([  # [TE-PE] enum NGenBind, 0..23 in order
        "START_BIND", "NO_INDEX", "SYSTEM_ASSEMBLY_NOT_AVAILABLE", "NO_NATIVE_IMAGE",
        "REJECT_CONFIG_MASK", "FAIL", "INDEX_CORRUPTION", "REJECT_TIMESTAMP",
        "REJECT_NATIVEIMAGE_NOT_FOUND", "REJECT_IL_SIG", "REJECT_LOADER_EVAL_FAIL",
        "MISSING_FOUND", "REJECT_HOSTASM", "REJECT_IL_NOT_FOUND", "REJECT_APPBASE_NOT_FILE",
        "BIND_DEPEND_REJECT_REF_DEF_MISMATCH", "BIND_DEPEND_REJECT_NGEN_SIG",
        "APPLY_EXTERNAL_RELOCS_FAILED", "SYSTEM_ASSEMBLY_NATIVEIMAGE_NOT_AVAILABLE",
        "ASSEMBLY_HAS_DIFFERENT_GRANT", "ASSEMBLY_NOT_DOMAIN_NEUTRAL",
        "NATIVEIMAGE_VERSION_MISMATCH", "LOADFROM_NOT_ALLOWED",
        "DEPENDENCY_HAS_DIFFERENT_IDENTITY"]))),
    "gc_heap_compact_reason": (False, "int", list(enumerate([  # [TE-E] enum gc_heap_compact_reason
        "compact_low_ephemeral", "compact_high_frag", "compact_no_gaps", "compact_loh_forced",
        "compact_last_gc", "compact_induced_compacting", "compact_fragmented_gen0",
        "compact_high_mem_load", "compact_high_mem_frag", "compact_vhigh_mem_frag",
        "compact_no_gc_mode", "max_compact_reasons_count"])) + [(1024, "not_specified")]),
    "gc_heap_expand_mechanism": (False, "int", list(enumerate([  # [TE-E] enum gc_heap_expand_mechanism
        "expand_reuse_normal", "expand_reuse_bestfit", "expand_new_seg_ep", "expand_new_seg",
        "expand_no_memory", "expand_next_full_gc", "max_expand_mechanisms_count"]))
        + [(1024, "not_specified")]),
}

# Fields TraceEvent types as an enum where the manifest has no map [TE-E properties of
# GCJoinTraceData, GCPerHeapHistoryTraceData, GCGlobalHeapHistoryTraceData,
# GCSettingsRundownTraceData] [TE-PE NgenBindEventTraceData.ReasonCode] [TE-S].
FIELD_ENUMS = {
    ("kRuntime", 203, "JoinTime"): "GcJoinTime", ("kRuntime", 203, "JoinType"): "GcJoinType",
    ("kPrivate", 6, "JoinTime"): "GcJoinTime", ("kPrivate", 6, "JoinType"): "GcJoinType",
    ("kRuntime", 204, "CompactMechanisms"): "gc_heap_compact_reason",
    ("kRuntime", 204, "ExpandMechanisms"): "gc_heap_expand_mechanism",
    ("kRuntime", 205, "Reason"): "GCReason", ("kRuntime", 205, "GlobalMechanisms"): "GCGlobalMechanisms",
    ("kRuntime", 205, "PauseMode"): "GCPauseMode",
    ("kPrivate", 5, "Reason"): "GCReason", ("kPrivate", 5, "GlobalMechanisms"): "GCGlobalMechanisms",
    ("kPrivate", 188, "ReasonCode"): "NGenBind",
    ("kRundown", 10, "BitSettings"): "GCSettingsFlags",
    ("kRuntime", 209, "BucketKind"): "BucketKind",
    ("kRuntime", 301, "WaitSource"): "WaitHandleWaitSource",
    ("kSampleProfiler", 0, "Type"): "ClrThreadSampleType",
}

# Enums of fields outside the CLR table, emitted for the decoder to attach by name
# (clr::FindEnum): TraceEvent's TPL parser returns TplEventSource's TaskWait/Send Behavior
# as TaskWaitBehavior [TE-T], where the event's metadata says Int32.
UNATTACHED = ["TaskWaitBehavior"]

# Fields with a manifest map that TraceEvent returns as int [TE-E]: ThreadCreatedTraceData.Flags
# (runtime 85, rundown 159), GCMarkWithTypeTraceData.Type (runtime 202).
FIELD_NOT_ENUM = {("kRuntime", 85, "Flags"), ("kRundown", 159, "Flags"), ("kRuntime", 202, "Type")}

# How TraceEvent turns the raw field into the enum value: (EnumRead enumerator, param, fallback).
READS = {
    # [TE-E] MethodLoadUnloadTraceDataBase.MethodFlags clears the optimization-tier bits
    # (7-9, OptimizationTierShift/LowMask) and the method-extent bits (28-31).
    "MethodFlags": ("kMasked", 0xFFFFFFFF ^ ((0x7 << 7) | (0xF << 28)), 0),
    # [TE-E] GCPerHeapHistoryTraceData.CompactMechanisms / ExpandMechanisms: the index of the
    # lowest set bit (IndexOfSetBit) when below max_*_count, else not_specified (also for 0).
    "gc_heap_compact_reason": ("kLowestSetBit", 11, 1024),
    "gc_heap_expand_mechanism": ("kLowestSetBit", 6, 1024),
}


class EnumError(Exception):
    pass


def load_maps(root, message):
    """{map name: (is_bitmap, {value: message})}, merged over the providers."""
    maps = {}
    for tag, is_bitmap in (("valueMap", False), ("bitMap", True)):
        for m in root.iter(NS + tag):
            members = {int(e.get("value"), 16): message(e.get("message")) for e in m.iter(NS + "map")}
            known = maps.setdefault(m.get("name"), (is_bitmap, {}))
            if known[0] != is_bitmap:
                raise EnumError("map %s is both a valueMap and a bitMap" % m.get("name"))
            for v, n in members.items():
                if known[1].get(v, n) != n:
                    raise EnumError("map %s: value %#x named %s and %s" % (m.get("name"), v, known[1][v], n))
                known[1][v] = n
    return maps


class EnumResolver:
    """Assigns TraceEvent's enum to fields and collects the enums the table uses."""

    def __init__(self, maps):
        self.maps = maps
        self.used = {}  # enum name -> definition dict
        self.hits = set()

    def field_enum(self, prov, eid, name, map_name, nested, has_template):
        key = (prov, eid, name)
        if key in FIELD_ENUMS:
            if nested or map_name:
                raise EnumError("FIELD_ENUMS %s: the field is nested or has a map" % (key,))
            self.hits.add(key)
            enum_name = FIELD_ENUMS[key]
            # GCReason here is the manifest's GCReasonMap enum, used by a field without map=.
            from_map = enum_name + MAP_SUFFIX
            return self._use(enum_name, from_map if from_map in self.maps else None)
        if key in FIELD_NOT_ENUM:
            if not map_name:
                raise EnumError("FIELD_NOT_ENUM %s: the field has no map" % (key,))
            self.hits.add(key)
            return None
        if not map_name or nested or not has_template:
            return None
        if not map_name.endswith(MAP_SUFFIX) or map_name not in self.maps:
            raise EnumError("unknown map %s" % map_name)
        return self._use(map_name[:-len(MAP_SUFFIX)], map_name)

    def _use(self, enum_name, map_name):
        if enum_name in self.used:
            if self.used[enum_name]["map"] != map_name:
                raise EnumError("enum %s comes from two sources" % enum_name)
            return enum_name
        if enum_name in TE_ONLY_ENUMS and enum_name + MAP_SUFFIX in self.maps:
            raise EnumError("TE_ONLY_ENUMS %s has a manifest map now: drop it" % enum_name)
        if map_name is None:
            if enum_name not in TE_ONLY_ENUMS:
                raise EnumError("no definition for enum %s" % enum_name)
            flags, underlying, members = TE_ONLY_ENUMS[enum_name]
            members = dict((v, n) for v, n in members)
        else:
            flags, members = self.maps[map_name][0], dict(self.maps[map_name][1])
            underlying = UNDERLYING.get(enum_name, "int")
            if flags and 0 not in members:
                members[0] = NONE_NAME
            for v, n in MEMBER_CHANGES.get(enum_name, {}).items():
                if n is None and v not in members or members.get(v) == n:
                    raise EnumError("MEMBER_CHANGES %s %#x changes nothing" % (enum_name, v))
                if n is None:
                    del members[v]
                else:
                    members[v] = n
        if len(set(members.values())) != len(members):
            raise EnumError("enum %s repeats a name" % enum_name)
        size, signed = {"int": (4, True), "uint": (4, False)}[underlying]
        mask = (1 << (8 * size)) - 1
        # .NET orders members by value as unsigned storage; Enum.ToString() relies on it.
        ordered = sorted(members.items(), key=lambda kv: kv[0] & mask)
        read = READS.get(enum_name, ("kValue", 0, 0))
        self.used[enum_name] = {"name": enum_name, "map": map_name, "flags": flags, "size": size,
                                "signed": signed, "members": ordered, "read": read}
        return enum_name

    def use_unattached(self):
        for name in UNATTACHED:
            self._use(name, None)

    def check_all_used(self):
        unused = [k for k in list(FIELD_ENUMS) + sorted(FIELD_NOT_ENUM) if k not in self.hits]
        unused += [e for e in list(MEMBER_CHANGES) + list(READS) + list(TE_ONLY_ENUMS) if e not in self.used]
        if unused:
            raise EnumError("enum facts not used by any field: %s" % ", ".join(map(str, unused)))

    def enums(self):
        """The used enums, sorted by name (the generated kEnums order)."""
        return [self.used[n] for n in sorted(self.used, key=lambda s: (s.lower(), s))]
