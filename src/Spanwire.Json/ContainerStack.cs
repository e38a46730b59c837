namespace Spanwire.Json;

/// <summary>
/// Whether each open container is an object or an array, for validation: the first 64 levels in one ulong, deeper
/// ones in an array made once and kept across resets.
/// </summary>
internal struct ContainerStack
{
    private ulong _bits;
    private bool[]? _deep;
    private int _count;

    public readonly int Count => _count;

    public void Push(bool isObject)
    {
        if (_count < 64)
        {
            _bits = isObject ? _bits | (1UL << _count) : _bits & ~(1UL << _count);
        }
        else
        {
            int at = _count - 64;
            _deep ??= new bool[64];
            if (at == _deep.Length)
            {
                Array.Resize(ref _deep, _deep.Length * 2);
            }

            _deep[at] = isObject;
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

    private readonly bool Peek(int level) => level < 64 ? (_bits & (1UL << level)) != 0 : _deep![level - 64];

    public void Clear()
    {
        _bits = 0;
        _count = 0;
    }
}
