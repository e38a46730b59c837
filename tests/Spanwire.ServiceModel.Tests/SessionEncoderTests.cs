using System.ServiceModel;
using System.ServiceModel.Channels;

namespace Spanwire.ServiceModel.Tests;

/// <summary>
/// The session form against WCF's session encoder: a conversation of messages, each preceded by the strings it adds
/// to the session's table, byte for byte the same, and each side reading the other's conversation.
/// </summary>
public class SessionEncoderTests
{
    private static MessageEncoder InBox(int maxSessionSize = 2048) =>
        new BinaryMessageEncodingBindingElement { MaxSessionSize = maxSessionSize }.CreateMessageEncoderFactory().CreateSessionEncoder();

    private static MessageEncoder Spanwire(int maxSessionSize = 2048) =>
        new SpanwireBinaryMessageEncodingBindingElement { MaxSessionSize = maxSessionSize }.CreateMessageEncoderFactory().CreateSessionEncoder();

    /// <summary>A conversation: the same messages twice (the second time their strings are in the table already).</summary>
    private static IEnumerable<Message> Conversation()
    {
        for (int round = 0; round < 2; round++)
        {
            foreach ((string _, Func<Message> create) in Messages.All())
            {
                yield return create();
            }
        }
    }

    private static List<byte[]> Write(MessageEncoder encoder, BufferManager manager)
    {
        var written = new List<byte[]>();
        foreach (Message message in Conversation())
        {
            ArraySegment<byte> data = encoder.WriteMessage(message, int.MaxValue, manager, 3);
            written.Add(data.ToArray());
            manager.ReturnBuffer(data.Array!);
        }

        return written;
    }

    private static List<string> Read(MessageEncoder encoder, List<byte[]> conversation, BufferManager manager)
    {
        var seen = new List<string>();
        foreach (byte[] bytes in conversation)
        {
            byte[] buffer = manager.TakeBuffer(bytes.Length);
            bytes.CopyTo(buffer, 0);
            using Message message = encoder.ReadMessage(new ArraySegment<byte>(buffer, 0, bytes.Length), manager, null);
            seen.Add(Messages.Describe(message));
        }

        return seen;
    }

    [Theory]
    [InlineData(2048)]
    [InlineData(0)]
    [InlineData(40)]
    [InlineData(1 << 20)]
    public void Conversation_same_bytes_as_WCF(int maxSessionSize)
    {
        var manager = new CountingBufferManager();
        List<byte[]> expected = Write(InBox(maxSessionSize), manager);
        List<byte[]> actual = Write(Spanwire(maxSessionSize), manager);
        Expect.Equal(expected.Count, actual.Count, "messages");
        for (int i = 0; i < expected.Count; i++)
        {
            Expect.Equal(Convert.ToHexString(expected[i]), Convert.ToHexString(actual[i]), $"message {i}, MaxSessionSize {maxSessionSize}");
        }

        Expect.Equal(0, manager.Outstanding, "buffers not given back");
    }

    [Fact]
    public void Conversation_each_reads_what_the_other_wrote()
    {
        var manager = new CountingBufferManager();
        List<byte[]> fromInBox = Write(InBox(), manager);
        List<string> control = Read(InBox(), fromInBox, manager);
        Assert.Equal(control, Read(Spanwire(), fromInBox, manager));
        Assert.Equal(control, Read(InBox(), Write(Spanwire(), manager), manager));
        Expect.Equal(0, manager.Outstanding, "buffers not given back");
    }

    [Fact]
    public void Session_table_over_quota_communication_exception_as_WCF()
    {
        var manager = new CountingBufferManager();
        List<byte[]> conversation = Write(InBox(1 << 20), manager);
        foreach (MessageEncoder reader in new[] { InBox(16), Spanwire(16) })
        {
            byte[] buffer = manager.TakeBuffer(conversation[1].Length);
            conversation[1].CopyTo(buffer, 0);
            var e = Assert.Throws<CommunicationException>(() => reader.ReadMessage(new ArraySegment<byte>(buffer, 0, conversation[1].Length), manager, null));
            Assert.IsType<QuotaExceededException>(e.InnerException);
            manager.ReturnBuffer(buffer);
        }
    }

    /// <summary>
    /// A table that does not hold together. WCF means to throw InvalidDataException (its message "The binary encoder
    /// session information is not properly formed") and to refuse every later message of the session; on .NET its
    /// message logger throws NotImplementedException on the way out, and an unfinished size escapes as
    /// InvalidOperationException. Spanwire throws what WCF means to (README, "Where it differs"); the control shows WCF
    /// refusing the same bytes and the next message.
    /// </summary>
    [Theory]
    [InlineData("FF", "the table size is an unfinished MB31")]
    [InlineData("05 03 41 42", "the table runs past the message")]
    [InlineData("03 05 41 42", "a string runs past the table")]
    [InlineData("02 80", "a string length is an unfinished MB31")]
    public void Malformed_table_refused_as_WCF_then_session_unusable(string hex, string why)
    {
        byte[] bytes = Convert.FromHexString(hex.Replace(" ", "", StringComparison.Ordinal));
        byte[] next = [0x00, 0x56, 0x02];
        var manager = new CountingBufferManager();
        MessageEncoder inBox = InBox(), spanwire = Spanwire();
        Exception? control = Record.Exception(() => Read(inBox, [bytes], manager));
        Assert.True(control is InvalidDataException or NotImplementedException or InvalidOperationException, $"{why}: WCF threw {control?.GetType().Name}");
        Assert.NotNull(Record.Exception(() => Read(inBox, [next], manager)));

        Exception? actual = Record.Exception(() => Read(spanwire, [bytes], manager));
        Assert.True(actual is InvalidDataException, $"{why}: Spanwire threw {actual?.GetType().Name}: {actual?.Message}");
        Assert.Throws<InvalidDataException>(() => Read(spanwire, [next], manager));
    }
}
