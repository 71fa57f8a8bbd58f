"""CLR events our manifest lacks, for gen_clr_events.py.

docs/reference/ClrEtwAll.man.gz predates .NET 9/10: runtimes write events, versions and
layouts it does not describe, and TraceEvent (our oracle) decodes them with templates of its
own. The entries here fill the table where the manifest falls short; gen_clr_events.py fails
when the manifest gains one of them, so each can be dropped once it is redundant.

Sources, read (not copied):
  [MAN+]  A newer ClrEtwAll.man (leculver/runtime@91d3147c, a dotnet/runtime fork).
  [MAN9]  dotnet/runtime src/coreclr/vm/ClrEtwAll.man at dotnet/runtime@68813511: templates
          GCAllocationTick_V4, GCGlobalHeap_V4, GCFitBucketInfo, ContentionStart_V2,
          ThreadPoolMinMaxThreads, GCDynamicEvent; event entries 58, 59, 81 v2, 90, 205 v4, 209
          (level, keywords, task, opcode); map GCBucketKindMap. It has no event 303 yet.
  [TE-N]  microsoft/perfview@f3ec1b38 src/TraceEvent/Parsers/ClrTraceEventParser.cs: each
          template's id, task and opcode, and the typed properties of its *TraceData class
          (field order, offsets, sizes).
  [TE-G]  microsoft/perfview@120e892a src/TraceEvent/Parsers/GCDynamicTraceEventParser.cs.
  [TE-R] [TE-P] [TE-S] [TE-NAMES]  as in gen_clr_events.py.
  [NET10] The .NET 10.0.12 traces of tests/data/dotnet10 (MANIFEST.md): every payload of these
          events has exactly the size its layout gives (no bytes left, none missing).
Python 3 standard library only.
"""

# A field: (name, inType, outType or None[, manifest map]) or a struct array:
# (name, "struct", count field name, [member fields]).
U8, U16, U32, U64 = "win:UInt8", "win:UInt16", "win:UInt32", "win:UInt64"
I16, I32, I64 = "win:Int16", "win:Int32", "win:Int64"
PTR, STR, DBL, FLT = "win:Pointer", "win:UnicodeString", "win:Double", "win:Float"
HEX32, HEX64 = "win:HexInt32", "win:HexInt64"

# Keyword masks of the runtime provider ([MAN9] keywords; AllocationSampling [TE-N] Keywords).
GC_KW, CONTENTION_KW, THREADING_KW, ALLOCATION_SAMPLING_KW = 0x1, 0x4000, 0x10000, 0x80000000000
WAIT_HANDLE_KW = 0x40000000000  # [TE-N] WaitHandleWaitStartTraceData.GetKeywords()
INFO, VERBOSE = 4, 5

_ALLOCATION_TICK_V4 = [
    ("AllocationAmount", U32, HEX32), ("AllocationKind", U32, None, "GCAllocationKindMap"),
    ("ClrInstanceID", U16, None), ("AllocationAmount64", U64, HEX64), ("TypeID", PTR, None),
    ("TypeName", STR, None), ("HeapIndex", U32, None), ("Address", PTR, None),
    ("ObjectSize", U64, HEX64)]
_GLOBAL_HEAP_V4 = [
    ("FinalYoungestDesired", U64, HEX64), ("NumHeaps", I32, None), ("CondemnedGeneration", U32, None),
    ("Gen0ReductionCount", U32, None), ("Reason", U32, None), ("GlobalMechanisms", U32, None),
    ("ClrInstanceID", U16, None), ("PauseMode", U32, None), ("MemoryPressure", U32, None),
    ("CondemnReasons0", U32, None), ("CondemnReasons1", U32, None), ("Count", U32, None),
    ("Values", "struct", "Count", [("Time", U32, None)])]

# Events or versions this manifest lacks, with layouts. Tuple: (provider, id, version,
# opcode value, level, keywords, task, opcode name, symbol, [fields]).
SUPPLEMENT_EVENTS = [
    # Runtime 208, GCLOHCompact (.NET 7+, GC keyword, Informational, written by the GC after a
    # compacting LOH GC): ClrInstanceID and Count (UInt16 each), then Count per-heap records.
    # TraceEvent's template (GCLOHCompactTraceData) shows only those two fields, reading the
    # records through Info(heap) [TE-N]; task "GC", opcode 208 "LOHCompact" [TE-R][TE-NAMES].
    ("kRuntime", 208, 0, 208, 4, GC_KW, "GC", "LOHCompact", "GCLOHCompact", [
        ("ClrInstanceID", U16, None), ("Count", U16, None)]),
    # Rundown 10, GCSettingsRundown: event value 10, task CLRGCRundown (40), opcode
    # GCSettingsRundown (10), level Informational, no keywords, template GCSettingsRundown
    # [MAN+]. TraceEvent: GCSettingsRundownTemplate, task "GC", opcode "SettingsRundown" [TE-R].
    ("kRundown", 10, 0, 10, 4, 0, "GC", "SettingsRundown", "GCSettingsRundown", [
        ("HardLimit", U64, None), ("LOHThreshold", U64, None),
        ("PhysicalMemoryConfig", U64, None), ("Gen0MinBudgetConfig", U64, None),
        ("Gen0MaxBudgetConfig", U64, None), ("HighMemPercentConfig", U32, None),
        ("BitSettings", U32, None), ("ClrInstanceID", U16, None)]),
    # Rundown 300, ExecutionCheckpointDCEnd: task ExecutionCheckpointRundown (35), opcode
    # ExecutionCheckpointDCEnd (11), level Informational, template ExecutionCheckpointRundown
    # = ClrInstanceID, Name, Timestamp [MAN+]. The executioncheckpoints trace agrees: each
    # payload is 34 bytes = UInt16 + "RuntimeInit\0" in UTF-16 + Int64, metadata version 0,
    # level 4, keywords 0. Name [BASE] and template [TE-R]:
    # ExecutionCheckpointRundown/ExecutionCheckpointDCEnd.
    ("kRundown", 300, 0, 11, 4, 0, "ExecutionCheckpointRundown", "ExecutionCheckpointDCEnd",
     "ExecutionCheckpointDCEnd", [
        ("ClrInstanceID", U16, None), ("Name", STR, None), ("Timestamp", I64, None)]),
    # Microsoft-DotNETCore-SampleProfiler event 0: id 0, version 0, keywords 0, level
    # Informational (dotnet/runtime src/native/eventpipe/ep-sample-profiler.c,
    # ep_sample_profiler_init); payload one 32-bit sample type, which TraceEvent reads with
    # GetInt32At(0) as ClrThreadSampleType [TE-S]. TraceEvent's template: task "Thread",
    # opcode 1 "Sample" [TE-S]. No manifest symbol: named after TraceEvent's ThreadSample.
    ("kSampleProfiler", 0, 0, 1, 4, 0, "Thread", "Sample", "ThreadSample", [("Type", U32, None)]),
    # GCAllocationTick_V4: version 3's fields and ObjectSize; level Verbose, GCKeyword, opcode
    # GCAllocationTick (11) as versions 0-3 [MAN9]. TraceEvent reads ObjectSize when the
    # version is 4 or more [TE-N].
    ("kRuntime", 10, 4, 11, VERBOSE, GC_KW, "GC", "AllocationTick", "GCAllocationTick_V4",
     _ALLOCATION_TICK_V4),
    # Id 58 since .NET 6 (replacing this manifest's InitializeYieldProcessorNormalized, see
    # REPLACES): template YieldProcessorMeasurement, task YieldProcessorMeasurement (37), opcode
    # Info, level Informational, ThreadingKeyword [MAN9]; TraceEvent: ClrInstanceID at 0,
    # NsPerYield and EstablishedNsPerYield as doubles at 2 and 10 [TE-N].
    ("kRuntime", 58, 0, 0, INFO, THREADING_KW, "YieldProcessorMeasurement", "",
     "YieldProcessorMeasurement", [
        ("ClrInstanceID", U16, None), ("NsPerYield", DBL, None), ("EstablishedNsPerYield", DBL, None)]),
    # ThreadPoolMinMaxThreads: task ThreadPoolMinMaxThreads (38), opcode Info, level
    # Informational, ThreadingKeyword, four UInt16 counts and ClrInstanceID [MAN9][TE-N].
    ("kRuntime", 59, 0, 0, INFO, THREADING_KW, "ThreadPoolMinMaxThreads", "",
     "ThreadPoolMinMaxThreads", [
        ("MinWorkerThreads", U16, None), ("MaxWorkerThreads", U16, None),
        ("MinIOCompletionThreads", U16, None), ("MaxIOCompletionThreads", U16, None),
        ("ClrInstanceID", U16, None)]),
    # ContentionStart_V2: version 1's fields, then LockID, AssociatedObjectID (pointers) and
    # LockOwnerThreadID (UInt64); level Informational, ContentionKeyword, opcode Start [MAN9].
    ("kRuntime", 81, 2, 1, INFO, CONTENTION_KW, "Contention", "Start", "ContentionStart_V2", [
        ("ContentionFlags", U8, None, "ContentionFlagsMap"), ("ClrInstanceID", U16, None),
        ("LockID", PTR, None), ("AssociatedObjectID", PTR, None), ("LockOwnerThreadID", U64, None)]),
    # LockCreated: LockID, AssociatedObjectID, ClrInstanceID; level Informational,
    # ContentionKeyword [MAN9] (whose opcode is Info). TraceEvent's template gives it opcode 11,
    # "LockCreated", and reads the two ids as 8-byte values at 0 and 8 [TE-N].
    ("kRuntime", 90, 0, 11, INFO, CONTENTION_KW, "Contention", "LockCreated", "LockCreated", [
        ("LockID", PTR, None), ("AssociatedObjectID", PTR, None), ("ClrInstanceID", U16, None)]),
    # GCGlobalHeapHistory_V4: version 3's fields, then Count and Count UInt32 times; level
    # Informational, GCKeyword, opcode GCGlobalHeapHistory (205) [MAN9]. TraceEvent shows
    # Count, not the times [TE-N].
    ("kRuntime", 205, 4, 205, INFO, GC_KW, "GC", "GlobalHeapHistory", "GCGlobalHeapHistory_V4",
     _GLOBAL_HEAP_V4),
    # GCFitBucketInfo: level Verbose, GCKeyword, opcode GCFitBucketInfo (209), BucketKind with
    # map GCBucketKindMap, then Count buckets of (Index UInt16, Count UInt32, Size Pointer)
    # [MAN9]. The runtime writes each bucket as its native struct, Index padded to 4 bytes:
    # TraceEvent reads Index and Count as Int32 at +0 and +4, Size at +8, 16 bytes a bucket
    # (12 with 4-byte pointers) [TE-N], and every payload is 14 + 16 x Count bytes [NET10].
    # TraceEvent shows the fields before the buckets, BucketKind as its enum BucketKind [TE-N]
    # (clr_enum_facts.py).
    ("kRuntime", 209, 0, 209, VERBOSE, GC_KW, "GC", "FitBucketInfo", "GCFitBucketInfo", [
        ("ClrInstanceID", U16, None), ("BucketKind", U16, None), ("TotalSize", U64, None),
        ("Count", U16, None),
        ("Values", "struct", "Count", [("Index", U32, None), ("Count", U32, None), ("Size", PTR, HEX64)])]),
    # WaitHandleWaitStart/Stop (.NET 9): TraceEvent's templates have ids 301/302, task
    # WaitHandleWait (39), opcodes Start (1) / Stop (2), keyword WaitHandle; Start reads
    # WaitSource (byte at 0, enum WaitHandleWaitSource), AssociatedObjectID (address at 1) and
    # ClrInstanceID (16 bits after it); Stop, ClrInstanceID [TE-N]. Level Verbose, the level the
    # runtime checks before writing them (WaitHandle.cs, Monitor.Wait: EventLevel.Verbose); every
    # payload is 11 (Start, 8-byte pointers) or 2 (Stop) bytes [NET10 net10-bgc-waits-mcj].
    ("kRuntime", 301, 0, 1, VERBOSE, WAIT_HANDLE_KW, "WaitHandleWait", "Start", "WaitHandleWaitStart", [
        ("WaitSource", U8, None), ("AssociatedObjectID", PTR, None), ("ClrInstanceID", U16, None)]),
    ("kRuntime", 302, 0, 2, VERBOSE, WAIT_HANDLE_KW, "WaitHandleWait", "Stop", "WaitHandleWaitStop", [
        ("ClrInstanceID", U16, None)]),
    # AllocationSampled (.NET 10): TraceEvent's template has id 303, task AllocationSampling
    # (40), opcode 0 "AllocationSampled" (so the name is the task's), keyword
    # AllocationSampling; fields AllocationKind (Int32, GCAllocationKind), ClrInstanceID
    # (16 bits), TypeID (address), TypeName, Address, ObjectSize and SampledByteOffset (64 bits)
    # [TE-N]. Level Informational: the level the net10-alloc-sampled session enabled [NET10].
    ("kRuntime", 303, 0, 0, INFO, ALLOCATION_SAMPLING_KW, "AllocationSampling", "",
     "AllocationSampled", [
        ("AllocationKind", U32, None, "GCAllocationKindMap"), ("ClrInstanceID", U16, None),
        ("TypeID", PTR, None), ("TypeName", STR, None), ("Address", PTR, None),
        ("ObjectSize", U64, None), ("SampledByteOffset", U64, None)]),
]

# Manifest entries SUPPLEMENT_EVENTS replaces, (provider, id, version) -> why.
REPLACES = {
    # TraceEvent decodes every id-58 event with its YieldProcessorMeasurement template [TE-R],
    # and .NET 6+ writes that layout [MAN9]; the .NET 5 InitializeYieldProcessorNormalized
    # this manifest describes there is never shown by TraceEvent.
    ("kRuntime", 58, 0): "InitializeYieldProcessorNormalizedInfo",
}

# TraceEvent templates for ids absent from this manifest whose layout we do not hold: the
# name is still TraceEvent's, the entry has layoutKnown = false and no fields.
# (provider, id, opcode value, task, opcode name).
TE_NAME_ONLY = [
    ("kRuntime", 34, 37, "GC", "PinPlugAtGCTime"),             # [TE-R]; moved to private 199
    ("kRuntime", 300, 11, "ExecutionCheckpoint", "ExecutionCheckpoint"),  # [TE-R]
    ("kRundown", 188, 1, "CodeSymbolsRundown", "Start"),       # [TE-R]
    ("kPrivate", 198, 44, "GC", "PinObjectAtGCTime"),          # [TE-P]
    # Thread-pool events the private provider carried before they moved to the runtime [TE-P].
    ("kPrivate", 300, 1, "ThreadPoolWorkingThreadCount", "Start"),
    ("kPrivate", 301, 11, "ThreadPool", "Enqueue"),
    ("kPrivate", 302, 12, "ThreadPool", "Dequeue"),
    ("kPrivate", 303, 13, "ThreadPool", "IOEnqueue"),
    ("kPrivate", 304, 14, "ThreadPool", "IODequeue"),
    ("kPrivate", 305, 15, "ThreadPool", "IOPack"),
    # TraceEvent names id 0 of these two providers after ETW's string event [TE-NAMES].
    ("kRuntime", 0, 0, "EventWriteString", ""),
    ("kPrivate", 0, 0, "EventWriteString", ""),
]

# GC dynamic events: the runtime writes them all as GCDynamicEvent (runtime id 39: Name,
# DataSize, Data, ClrInstanceID [MAN9]); TraceEvent picks a template by Name (ignoring case),
# renames the event after it, gives it an id of its own (TraceEventID.Illegal - n) and shows
# only the fields it reads from Data, little-endian at fixed offsets [TE-G]. Tuple: (Name, the
# id TraceEvent gives it, [fields of Data]); the task is "GC", the opcode name is Name.
# TraceEvent 4.0.0 has a template for CommittedUsage alone, chosen only when DataSize covers all
# of its fields; every other name (HeapCountTuning, HeapCountSample, DATAS's SizeAdaptation*) is
# "GC/DynamicTraceEvent" with the raw fields [TE-NAMES].
GC_DYNAMIC_EVENTS = [
    ("CommittedUsage", 0xFFFF - 11, [
        ("Version", I16, None), ("TotalCommittedInUse", I64, None),
        ("TotalCommittedInGlobalDecommit", I64, None), ("TotalCommittedInFree", I64, None),
        ("TotalCommittedInGlobalFree", I64, None), ("TotalBookkeepingCommitted", I64, None)]),
]
GC_DYNAMIC_TASK = "GC"
GC_DYNAMIC_OPCODE = 41  # GCDynamicEvent's opcode [MAN9]; TraceEvent's templates keep it [TE-G]
