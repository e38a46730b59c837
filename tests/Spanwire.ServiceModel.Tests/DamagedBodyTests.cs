using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;

namespace Spanwire.ServiceModel.Tests;

/// <summary>
/// A message damaged after its Body's start is refused at the step WCF's encoder refuses it: WCF reads the headers and
/// the Body's start when the message is read, and the rest of the body only when the body is read, so a service can
/// still read the headers (the MessageId to fault with) of a request whose body is malformed. Every byte past the Body
/// start tag is damaged in turn, in each sample, and the outcome of each step is compared with WCF's.
/// </summary>
public class DamagedBodyTests
{
    private static readonly MessageEncoder s_inBox = new BinaryMessageEncodingBindingElement().CreateMessageEncoderFactory().Encoder;
    private static readonly MessageEncoder s_ours = new SpanwireBinaryMessageEncodingBindingElement().CreateMessageEncoderFactory().Encoder;

    public static TheoryData<string> Samples() => ["request", "reply", "fault"];

    private static Message Sample(string name) => name switch
    {
        "request" => Messages.Request(),
        "reply" => Messages.Reply(),
        _ => Messages.Fault(),
    };

    [Theory]
    [MemberData(nameof(Samples))]
    public void Damage_inside_the_body_is_refused_when_the_body_is_read_as_WCF(string name)
    {
        ArraySegment<byte> written = s_inBox.WriteMessage(Sample(name), int.MaxValue, BufferManager.CreateBufferManager(0, int.MaxValue));
        byte[] sample = written.ToArray();
        int bodyStart = BodyContentOffset(sample);
        var differences = new List<string>();
        int compared = 0;
        for (int at = bodyStart; at < sample.Length; at++)
        {
            foreach (byte value in new byte[] { 0x00, 0xFF, (byte)(sample[at] ^ 0x01), (byte)(sample[at] ^ 0x20), (byte)(sample[at] ^ 0x80), 0x99 })
            {
                byte[] damaged = (byte[])sample.Clone();
                damaged[at] = value;
                string expected = Steps(s_inBox, damaged), actual = Steps(s_ours, damaged);
                compared++;
                // Where the reader is stricter on malformed binary XML (see the README) it refuses at the same step or later, never earlier.
                if (expected != actual && !(SameStepOrStricter(expected, actual)) && differences.Count < 5)
                {
                    differences.Add($"byte {at} set to 0x{value:X2}: WCF {expected}; ours {actual}");
                }
            }
        }

        Expect.Equal(0, differences.Count, $"{name}, {compared} damaged messages:\n" + string.Join("\n", differences));
    }

    /// <summary>Where the Body's content starts: after the Body start tag (the dictionary element record 0x42 0x0E, or prefixed 0x56 0x0E).</summary>
    private static int BodyContentOffset(byte[] message)
    {
        for (int i = 0; i + 1 < message.Length; i++)
        {
            if (message[i] is 0x42 or 0x56 && message[i + 1] == 0x0E)
            {
                return i + 2;
            }
        }

        throw new InvalidOperationException("no Body in the sample");
    }

    /// <summary>What each step does: reading the message, then its headers, then its body.</summary>
    private static string Steps(MessageEncoder encoder, byte[] bytes)
    {
        var manager = BufferManager.CreateBufferManager(0, int.MaxValue);
        byte[] buffer = manager.TakeBuffer(bytes.Length);
        bytes.CopyTo(buffer, 0);
        Message message;
        try
        {
            message = encoder.ReadMessage(new ArraySegment<byte>(buffer, 0, bytes.Length), manager, encoder.ContentType);
        }
        catch (Exception e) when (e is not Xunit.Sdk.XunitException)
        {
            return "ReadMessage " + Kind(e);
        }

        using (message)
        {
            string headers;
            try
            {
                headers = $"headers {message.Headers.Count} {message.Headers.MessageId} {message.Headers.Action}";
            }
            catch (Exception e) when (e is not Xunit.Sdk.XunitException)
            {
                return "read, headers " + Kind(e);
            }

            try
            {
                if (!message.IsEmpty)
                {
                    using XmlDictionaryReader body = message.GetReaderAtBodyContents();
                    while (body.Read())
                    {
                        _ = body.Value;
                    }
                }

                return $"read, {headers}, body read";
            }
            catch (Exception e) when (e is not Xunit.Sdk.XunitException)
            {
                return $"read, {headers}, body {Kind(e)}";
            }
        }
    }

    private static string Kind(Exception e) => e is XmlException ? "XmlException" : e.GetType().Name;

    private static bool SameStepOrStricter(string expected, string actual) =>
        expected.StartsWith("read, ", StringComparison.Ordinal) && actual.StartsWith("read, ", StringComparison.Ordinal)
        && expected.EndsWith("body read", StringComparison.Ordinal) && actual.EndsWith("body XmlException", StringComparison.Ordinal)
        && expected[..expected.LastIndexOf(", body", StringComparison.Ordinal)] == actual[..actual.LastIndexOf(", body", StringComparison.Ordinal)];
}
