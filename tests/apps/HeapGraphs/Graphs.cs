// The object graphs the heap snapshots of tests/data/heap/ hold. Every type is sealed and
// named for its place in one shape, so a test can find each shape by type name; sizes are
// measured at run time (Program.cs prints them) rather than assumed.
namespace HeapGraphs;

/// <summary>A singly linked chain of five nodes held by one static field.</summary>
internal sealed class ChainNode
{
    public ChainNode? Next;
    public long Id;
}

/// <summary>Top → Left, Right; Left → Bottom; Right → Bottom; Bottom → its payload.</summary>
internal sealed class DiamondTop
{
    public DiamondLeft? Left;
    public DiamondRight? Right;
}

internal sealed class DiamondLeft
{
    public DiamondBottom? Bottom;
}

internal sealed class DiamondRight
{
    public DiamondBottom? Bottom;
}

internal sealed class DiamondBottom
{
    // Set by the builder (not a field initialiser, so the bottom's own size can be measured):
    // 1,000 bytes of elements, over the 1,000-byte line past which the snapshot names the
    // array's type with a size suffix.
    public byte[]? Payload;
}

/// <summary>Three nodes in a ring (A → B → C → A) held by one static field on A.</summary>
internal sealed class CycleNode
{
    public CycleNode? Next;
}

/// <summary>The element type of a 100-element object[] held by a static field.</summary>
internal sealed class ArrayItem
{
    public int Value;
}

/// <summary>Held only by a strong GC handle.</summary>
internal sealed class HandleTarget
{
    public SharedLeaf? Shared;
}

/// <summary>Held by a static field and by the handle's target: two roots, no single owner.</summary>
internal sealed class SharedLeaf
{
    public long Value;
}

/// <summary>Held only by a local variable of Main while the program waits.</summary>
internal sealed class LocalHolder
{
    public ChainNode? Detached;
}

/// <summary>A node of the random graph of the "big" shape.</summary>
internal sealed class BigNode
{
    public BigNode? A;
    public BigNode? B;
    public BigNode? C;
    public int Id;
}

internal static class Roots
{
    public static ChainNode? Chain;
    public static DiamondTop? Diamond;
    public static CycleNode? Cycle;
    public static object[]? Items;
    public static int[]? Numbers;
    public static SharedLeaf? Shared;
    public static BigNode[]? BigRoots;
}
