using System.ServiceModel.Channels;

namespace Spanwire.ServiceModel.Tests;

/// <summary>A buffer manager that counts the buffers out, so a test can check every one came back.</summary>
public sealed class CountingBufferManager : BufferManager
{
    private readonly BufferManager _inner = CreateBufferManager(1 << 20, 1 << 22);
    private readonly HashSet<byte[]> _out = new(ReferenceEqualityComparer.Instance);

    public int Outstanding
    {
        get
        {
            lock (_out)
            {
                return _out.Count;
            }
        }
    }

    public override byte[] TakeBuffer(int bufferSize)
    {
        byte[] buffer = _inner.TakeBuffer(bufferSize);
        lock (_out)
        {
            _out.Add(buffer);
        }

        return buffer;
    }

    public override void ReturnBuffer(byte[] buffer)
    {
        lock (_out)
        {
            Assert.True(_out.Remove(buffer), "a buffer returned that was not taken, or returned twice");
        }

        _inner.ReturnBuffer(buffer);
    }

    public override void Clear() => _inner.Clear();
}
