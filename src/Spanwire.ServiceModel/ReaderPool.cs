using System.ServiceModel.Channels;
using System.Xml;
using Spanwire.BinaryXml;

namespace Spanwire.ServiceModel;

/// <summary>
/// Readers of buffered messages kept for reuse (up to the binding's MaxReadPoolSize). A reader opened with a
/// <see cref="BufferManager"/> gives its message's buffer back to it when the reader closes; one opened without leaves
/// the buffer to its owner (a message that reads it more than once).
/// </summary>
internal sealed class ReaderPool(int capacity)
{
    private readonly IdleStack<PooledReader> _idle = new(capacity);

    public XmlDictionaryReader Open(ArraySegment<byte> data, BufferManager? manager, IXmlDictionary dictionary, XmlDictionaryReaderQuotas quotas, XmlBinaryReaderSession? session)
    {
        PooledReader pooled = _idle.TryTake() ?? new PooledReader(this);
        return pooled.Open(data, manager, dictionary, quotas, session);
    }

    private void Return(PooledReader reader) => _idle.Return(reader);

    private sealed class PooledReader
    {
        private readonly ReaderPool _pool;
        private readonly OnXmlDictionaryReaderClose _onClose;
        private XmlDictionaryReader? _reader;
        private byte[]? _buffer;
        private BufferManager? _manager;

        public PooledReader(ReaderPool pool)
        {
            _pool = pool;
            _onClose = Closed;
        }

        public XmlDictionaryReader Open(ArraySegment<byte> data, BufferManager? manager, IXmlDictionary dictionary, XmlDictionaryReaderQuotas quotas, XmlBinaryReaderSession? session)
        {
            _buffer = manager is null ? null : data.Array;
            _manager = manager;
            if (_reader is IXmlBinaryReaderInitializer initializer)
            {
                initializer.SetInput(data.Array!, data.Offset, data.Count, dictionary, quotas, session, _onClose);
                return _reader;
            }

            return _reader = Nbfx.CreateReader(data.Array!, data.Offset, data.Count, dictionary, quotas, session, _onClose);
        }

        private void Closed(XmlDictionaryReader reader)
        {
            byte[]? buffer = _buffer;
            BufferManager? manager = _manager;
            _buffer = null;
            _manager = null;
            if (buffer is not null)
            {
                manager!.ReturnBuffer(buffer);
            }

            _pool.Return(this);
        }
    }
}
