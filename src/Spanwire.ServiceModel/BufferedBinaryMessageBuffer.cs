using System.ServiceModel.Channels;
using System.Xml;

namespace Spanwire.ServiceModel;

/// <summary>
/// A buffered copy of a <see cref="BufferedBinaryMessage"/>, as WCF's encoder makes of its own messages: the message's
/// bytes are kept as they were received (so typed values such as a DateTime's kind come back as sent, which a copy
/// written through an XML writer loses), and each message made from the copy reads its body from them. Its headers
/// and properties are those of the message when it was copied.
/// </summary>
internal sealed class BufferedBinaryMessageBuffer : MessageBuffer
{
    private readonly MessageHeaders _headers;
    private readonly MessageHeaderInfo[] _received;
    private readonly KeyValuePair<string, object>[] _properties;
    private readonly BufferedBinaryMessage.Source _source;
    private readonly bool _isEmpty;
    private readonly bool _isFault;
    private readonly string _contentType;
    private bool _closed;

    public BufferedBinaryMessageBuffer(BufferedBinaryMessage message, in BufferedBinaryMessage.Source received, string contentType)
    {
        _headers = new MessageHeaders(message.Headers);
        _received = message.ReceivedHeaders;
        // The properties the message holds, as WCF's copy keeps them: a copy through MessageProperties would add the
        // AllowOutputBatching property, which the message does not hold.
        _properties = [.. message.Properties];
        byte[] bytes = received.Buffer.AsSpan().ToArray();
        _source = received with { Buffer = new ArraySegment<byte>(bytes), BufferManager = null };
        _isEmpty = message.IsEmpty;
        _isFault = message.IsFault;
        _contentType = contentType;
    }

    public override int BufferSize => _closed ? ThrowClosed<int>() : _source.Buffer.Count;

    public override string MessageContentType => _closed ? ThrowClosed<string>() : _contentType;

    public override Message CreateMessage()
    {
        if (_closed)
        {
            ThrowClosed();
        }

        var headers = new MessageHeaders(_headers);
        Message message = BufferedBinaryMessage.FromCopy(_source, headers, _received, _isEmpty, _isFault);
        foreach (KeyValuePair<string, object> property in _properties)
        {
            message.Properties[property.Key] = property.Value; // a property that is an IMessageProperty is copied
        }

        return message;
    }

    /// <summary>As WCF's copy of a received message: the bytes received, as they are.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="stream"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The buffer is closed.</exception>
    public override void WriteMessage(Stream stream)
    {
        ArgumentNullException.ThrowIfNull(stream);
        if (_closed)
        {
            ThrowClosed();
        }

        stream.Write(_source.Buffer.AsSpan());
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private static void ThrowClosed() => throw new ObjectDisposedException("", "MessageBuffer is closed.");

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private static T ThrowClosed<T>() => throw new ObjectDisposedException("", "MessageBuffer is closed.");

    public override void Close()
    {
        _closed = true;
    }
}
