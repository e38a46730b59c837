using System.Buffers;
using System.Diagnostics;
using System.Globalization;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Text;
using System.Xml;
using Spanwire.BinaryXml;

namespace Spanwire.ServiceModel;

/// <summary>
/// The session form (MC-NBFSE in WCF's framing): each message is preceded by the strings its writer added to the
/// session, as a size (MB31) and then each string's length (MB31) and UTF-8 bytes; the reader adds them to its session
/// in order, ids from 0, before it reads the message.
/// </summary>
internal sealed partial class BinaryMessageEncoder
{
    private WriterSessionWithQuota? _writerSession;
    private XmlBinaryReaderSession? _readerSession;
    private int _nextReaderKey;
    private int _remainingReaderSessionSize;
    private bool _readerSessionInvalid;

    private WriterSessionWithQuota WriterSession => _writerSession ??= new WriterSessionWithQuota(_factory.MaxSessionSize);

    private XmlBinaryReaderSession ReaderSession => _readerSession ??= new XmlBinaryReaderSession();

    /// <summary>
    /// Puts the strings the message added to the session in front of it, in the room reserved before the message
    /// (a larger buffer is taken when the strings do not fit before the end of this one).
    /// </summary>
    private ArraySegment<byte> AddSessionStrings(ArraySegment<byte> data, BufferManager bufferManager, int maxMessageSize)
    {
        List<XmlDictionaryString> strings = WriterSession.NewStrings;
        byte[] buffer = data.Array!;
        int tableSize = 0;
        if (strings.Count > 0)
        {
            foreach (XmlDictionaryString s in strings)
            {
                int length = Encoding.UTF8.GetByteCount(s.Value);
                tableSize += NbfxPrimitives.GetMultiByteInt31Length(length) + length;
            }

            if (maxMessageSize - (data.Offset + data.Count) - tableSize < 0)
            {
                bufferManager.ReturnBuffer(buffer);
                BufferManagerWriter.ThrowQuotaExceeded(maxMessageSize);
            }

            int required = data.Offset + data.Count + tableSize;
            if (buffer.Length < required)
            {
                byte[] bigger = bufferManager.TakeBuffer(required);
                data.AsSpan().CopyTo(bigger.AsSpan(data.Offset));
                bufferManager.ReturnBuffer(buffer);
                buffer = bigger;
            }

            buffer.AsSpan(data.Offset, data.Count).CopyTo(buffer.AsSpan(data.Offset + tableSize));
            Span<byte> table = buffer.AsSpan(data.Offset, tableSize);
            foreach (XmlDictionaryString s in strings)
            {
                int length = Encoding.UTF8.GetByteCount(s.Value);
                bool written = NbfxPrimitives.TryWriteMultiByteInt31(table, length, out int n);
                Debug.Assert(written, "the table's size was counted from these strings");
                n += Encoding.UTF8.GetBytes(s.Value, table[n..]);
                table = table[n..];
            }

            strings.Clear();
        }

        int headerSize = NbfxPrimitives.GetMultiByteInt31Length(tableSize);
        int start = data.Offset - headerSize;
        bool headerWritten = NbfxPrimitives.TryWriteMultiByteInt31(buffer.AsSpan(start, headerSize), tableSize, out _);
        Debug.Assert(headerWritten, "headerSize is the length of tableSize's encoding");
        return new ArraySegment<byte>(buffer, start, headerSize + tableSize + data.Count);
    }

    /// <summary>
    /// Reads the strings in front of a session message into the reader session and returns the message after them.
    /// Malformed tables are <see cref="InvalidDataException"/>s and leave the session unusable, as WCF's encoder does.
    /// </summary>
    private ArraySegment<byte> ExtractSessionStrings(ArraySegment<byte> data)
    {
        if (_readerSessionInvalid)
        {
            throw new InvalidDataException("The binary encoder session is not valid. There was an error decoding a previous message.");
        }

        if (data.Count <= 0)
        {
            // As WCF's size decoder: no byte to read the table's size from (a default or empty segment).
            throw new ArgumentOutOfRangeException("size", data.Count, "The value of this argument must be positive.");
        }

        bool failed = true;
        try
        {
            ReadOnlySpan<byte> bytes = data.AsSpan();
            int size = ReadSize(bytes, out int headerSize);
            if (size > bytes.Length - headerSize)
            {
                ThrowMalformed();
            }

            if (size > 0)
            {
                if (size > _remainingReaderSessionSize)
                {
                    string message = string.Format(CultureInfo.InvariantCulture,
                        "The binary encoder session information exceeded the maximum size quota ({0}). To increase this quota, use the MaxSessionSize property on the SpanwireBinaryMessageEncodingBindingElement.",
                        _factory.MaxSessionSize);
                    throw new CommunicationException(message, new QuotaExceededException(message));
                }

                _remainingReaderSessionSize -= size;
                ReadOnlySpan<byte> table = bytes.Slice(headerSize, size);
                XmlBinaryReaderSession session = ReaderSession;
                while (!table.IsEmpty)
                {
                    int length = ReadSize(table, out int consumed);
                    if (length > table.Length - consumed)
                    {
                        ThrowMalformed();
                    }

                    session.Add(_nextReaderKey++, Encoding.UTF8.GetString(table.Slice(consumed, length)));
                    table = table[(consumed + length)..];
                }
            }

            failed = false;
            int skip = headerSize + size;
            return new ArraySegment<byte>(data.Array!, data.Offset + skip, data.Count - skip);
        }
        finally
        {
            if (failed)
            {
                _readerSessionInvalid = true;
            }
        }
    }

    private static int ReadSize(ReadOnlySpan<byte> source, out int consumed)
    {
        if (NbfxPrimitives.TryReadMultiByteInt31(source, out int value, out consumed) != OperationStatus.Done)
        {
            ThrowMalformed();
        }

        return value;
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private static void ThrowMalformed() => throw new InvalidDataException("The binary encoder session information is not properly formed.");
}
