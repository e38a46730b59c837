namespace Spanwire.Json;

/// <summary>
/// Whether each open container is an object or an array, for validation: the first 64 levels in one ulong, deeper
/// ones 64 to a ulong in an array made on first need and kept across resets.
/// </summary>
internal struct ContainerStack
{
    private ulong _bits;
    private ulong[]? _deep;
    private int _count;

    public readonly int Count => _count;

    public void Push(bool isObject)
    {
        int level = _count;
        if (level < 64)
        {
            _bits = isObject ? _bits | (1UL << level) : _bits & ~(1UL << level);
        }
        else
        {
            int word = (level - 64) >> 6;
            if (_deep is null || word == _deep.Length)
            {
                Array.Resize(ref _deep, Math.Max(4, word * 2)); // 256 more levels, then doubling
            }

            ulong bit = 1UL << (level & 63);
            _deep[word] = isObject ? _deep[word] | bit : _deep[word] & ~bit;
        }

        _count++;
    }

    /// <summary>Pops the innermost container; returns whether the one now innermost is an object (false when none is open).</summary>
    public bool Pop()
    {
        if (_count == 0)
        {
            return false;
        }

        _count--;
        return _count != 0 && Peek(_count - 1);
    }

    private readonly bool Peek(int level) =>
        ((level < 64 ? _bits : _deep![(level - 64) >> 6]) & (1UL << (level & 63))) != 0;

    public void Clear()
    {
        _bits = 0;
        _count = 0;
    }
}
