using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;

namespace Spanwire.ServiceModel.Tests;

/// <summary>
/// Seeded damage to messages WCF wrote (flipped, dropped and inserted bytes, cuts), read by both encoders and then
/// printed: Spanwire's encoder refuses what WCF's refuses, with the same kind of exception, reads what WCF's reads
/// (or refuses it as malformed binary XML, where its reader is stricter), and gives every buffer back.
/// </summary>
public class MalformedMessageFuzzTests
{
    [Fact]
    public void Damaged_messages_refused_as_WCF_refuses_them()
    {
        MessageVersion v10 = MessageVersion.Soap12WSAddressing10;
        MessageEncoder inBox = new BinaryMessageEncodingBindingElement().CreateMessageEncoderFactory().Encoder;
        MessageEncoder spanwire = new SpanwireBinaryMessageEncodingBindingElement().CreateMessageEncoderFactory().Encoder;
        byte[][] samples =
        [
            .. new Func<Message>[] { Messages.Request, Messages.Reply, Messages.Fault, Messages.TypedHeaders }.Select(create =>
            {
                ArraySegment<byte> data = inBox.WriteMessage(create(), int.MaxValue, BufferManager.CreateBufferManager(0, int.MaxValue));
                return data.ToArray();
            }),
        ];
        var random = new Random(20261124);
        var manager = new CountingBufferManager();
        int count = LongRuns.Scale(3_000), agreed = 0, stricter = 0;
        var differences = new List<string>();
        for (int i = 0; i < count; i++)
        {
            byte[] damaged = Damage(samples[random.Next(samples.Length)], random);
            string expected = Outcome(inBox, damaged, new CountingBufferManager());
            string actual = Outcome(spanwire, damaged, manager);
            Assert.DoesNotContain("IndexOutOfRange", actual);
            Assert.DoesNotContain("NullReference", actual);
            if (expected == actual)
            {
                agreed++;
            }
            else if (actual == "XmlException")
            {
                // The reader is stricter than WCF's on malformed binary XML (see the README): it refuses, for one,
                // control characters in text, which WCF's reader passes on for an XML writer to refuse.
                stricter++;
            }
            else if (differences.Count < 5)
            {
                differences.Add($"case {i}: WCF {expected}, Spanwire {actual}, bytes {Convert.ToHexString(damaged)}");
            }
        }

        Expect.Equal(0, manager.Outstanding, "buffers not given back");
        Expect.Equal(count, agreed + stricter, string.Join(Environment.NewLine, differences));
        Assert.True(stricter < count / 10, $"{stricter} of {count} damaged messages refused by Spanwire only");
    }

    /// <summary>What reading and printing the message gives: "read" or the exception type.</summary>
    private static string Outcome(MessageEncoder encoder, byte[] bytes, BufferManager manager)
    {
        byte[] buffer = manager.TakeBuffer(bytes.Length);
        bytes.CopyTo(buffer, 0);
        try
        {
            using Message message = encoder.ReadMessage(new ArraySegment<byte>(buffer, 0, bytes.Length), manager, encoder.ContentType);
            _ = Messages.Describe(message);
            return "read";
        }
        catch (XmlException)
        {
            // Spanwire's reader reports malformed binary XML as NbfxFormatException, an XmlException with the offset.
            return "XmlException";
        }
        catch (Exception e) when (e is not Xunit.Sdk.XunitException)
        {
            return e.GetType().Name;
        }
    }

    private static byte[] Damage(byte[] sample, Random random)
    {
        var bytes = new List<byte>(sample);
        int edits = random.Next(1, 4);
        for (int e = 0; e < edits && bytes.Count > 1; e++)
        {
            int at = random.Next(bytes.Count);
            switch (random.Next(4))
            {
                case 0:
                    bytes[at] ^= (byte)(1 << random.Next(8));
                    break;
                case 1:
                    bytes[at] = (byte)random.Next(256);
                    break;
                case 2:
                    bytes.RemoveAt(at);
                    break;
                default:
                    bytes.RemoveRange(at, bytes.Count - at);
                    break;
            }
        }

        return [.. bytes];
    }
}
