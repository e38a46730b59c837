using System.Buffers;
using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>The byte examples of the format and of the in-box writer's tests, written with NbfxWriter.</summary>
public class ByteVectorTests
{
    private static string Write(Action<NbfxWriter> write)
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new NbfxWriter(output);
        write(writer);
        writer.Flush();
        return Convert.ToHexString(output.WrittenSpan);
    }

    private static string InElement(Action<NbfxWriter> value) => Write(w =>
    {
        w.WriteStartElement(null, "a");
        value(w);
        w.WriteEndElement();
    })[6..]; // drop "40 01 61"

    [Fact] // <doc></doc>: ShortElement, name, EndElement
    public void Empty_element() => Assert.Equal("4003646F6301", Write(w => { w.WriteStartElement(null, "doc"); w.WriteEndElement(); }));

    [Theory]
    [InlineData(0, "81")] // Zero with end element
    [InlineData(1, "83")] // One with end element
    [InlineData(0x1234, "8B3412")] // Int16
    [InlineData(unchecked((int)0xFFFFFFF0), "89F0")] // fits sbyte: Int8
    [InlineData(int.MaxValue, "8DFFFFFF7F")] // Int32
    public void Int32_values(int value, string hex) => Assert.Equal(hex, InElement(w => w.WriteValue(value)));

    [Theory]
    [InlineData(0x0102030412345678L, "8F7856341204030201")] // Int64
    [InlineData(unchecked((long)0xFFFFFFFFF2345678L), "8D785634F2")] // fits int: Int32
    public void Int64_values(long value, string hex) => Assert.Equal(hex, InElement(w => w.WriteValue(value)));

    [Theory]
    [InlineData(1.23456788f, "9152069E3F")] // Float
    [InlineData(3.0f, "8903")] // integral and small: Int8
    [InlineData(100000f, "910050C347")] // integral but beyond short: Float
    public void Float_values(float value, string hex) => Assert.Equal(hex, InElement(w => w.WriteValue(value)));

    [Theory]
    [InlineData(256.0, "8B0001")] // (double)0x100: Int16
    [InlineData(1.0 / 3, "93555555555555D53F")] // Double
    [InlineData(-0.0, "81")] // −0.0 becomes Zero
    [InlineData(double.NaN, "93000000000000F8FF")] // NaN stays Double
    [InlineData(double.PositiveInfinity, "910000807F")] // infinity survives float: Float
    public void Double_values(double value, string hex) => Assert.Equal(hex, InElement(w => w.WriteValue(value)));

    [Fact] // lo 0x20212223, mid 0x10111213, hi 0x01020304, negative, scale 27
    public void Decimal_value() => Assert.Equal("9500001B800403020123222120131211 10".Replace(" ", ""),
        InElement(w => w.WriteValue(new decimal(0x20212223, 0x10111213, 0x01020304, true, 27))));

    [Fact] // 9999-12-31T23:59:59.9999999, unspecified kind
    public void DateTime_value() => Assert.Equal("97FF3F37F47528CA2B", InElement(w => w.WriteValue(DateTime.MaxValue)));

    [Fact] // −PT5M44S
    public void TimeSpan_value() => Assert.Equal("AF00C4F532FFFFFFFF", InElement(w => w.WriteValue(TimeSpan.FromSeconds(-344))));

    [Fact] // Guid bytes in Guid.TryWriteBytes order
    public void Guid_value() => Assert.Equal("B133221100554477668899AABBCCDDEEFF",
        InElement(w => w.WriteValue(new Guid("00112233-4455-6677-8899-aabbccddeeff"))));

    [Theory]
    [InlineData("", "A9")] // Empty
    [InlineData("0", "81")] // the string "0" is Zero
    [InlineData("1", "83")] // the string "1" is One
    [InlineData("abc", "9903616263")] // Chars8
    [InlineData("中文", "B7042D4E8765")] // 6 UTF-8 bytes / 2 > 2 chars: UnicodeChars8
    [InlineData("aé", "990361C3A9")] // 3 UTF-8 bytes / 2 ≤ 2 chars: Chars8
    public void Strings(string value, string hex) => Assert.Equal(hex, InElement(w => w.WriteString(value)));

    [Fact] // array of Int16 {13107, −30584, −8739} in <arr>
    public void Int16_array() => Assert.Equal("034003617272018B03333388 88DDDD".Replace(" ", ""),
        Write(w => w.WriteArray(null, "arr", new short[] { 13107, -30584, -8739 })));

    [Fact] // an empty array writes nothing, as in-box
    public void Empty_array() => Assert.Equal("", Write(w => w.WriteArray(null, "arr", ReadOnlySpan<int>.Empty)));

    [Theory]
    [InlineData(145, "9101")] // two bytes
    [InlineData(268435456, "8080808001")] // five bytes
    [InlineData(0x7F, "7F")] // largest one-byte value
    [InlineData(int.MaxValue, "FFFFFFFF07")] // largest value
    public void MultiByteInt31(int value, string hex)
    {
        Span<byte> buffer = stackalloc byte[5];
        Assert.True(NbfxPrimitives.TryWriteMultiByteInt31(buffer, value, out int written));
        Assert.Equal(hex, Convert.ToHexString(buffer[..written]));
        Assert.Equal(OperationStatus.Done, NbfxPrimitives.TryReadMultiByteInt31(buffer[..written], out int read, out int consumed));
        Assert.Equal((value, written), (read, consumed));
    }

    [Theory]
    [InlineData("8080808008")] // fifth byte with a top bit set: above 2^31−1
    [InlineData("80808080F0")] // fifth byte with all top bits set
    public void MultiByteInt31_invalid(string hex) =>
        Assert.Equal(OperationStatus.InvalidData, NbfxPrimitives.TryReadMultiByteInt31(Convert.FromHexString(hex), out _, out _));

    [Fact] // a truncated MB31 asks for more
    public void MultiByteInt31_truncated() =>
        Assert.Equal(OperationStatus.NeedMoreData, NbfxPrimitives.TryReadMultiByteInt31([0x80, 0x80], out _, out _));

    [Fact] // the prefix letters: PrefixElement p, PrefixAttribute q, xmlns never uses letters
    public void Prefix_letters() => Assert.Equal("6D01610901700575726E3A78360162980176 01".Replace(" ", ""),
        Write(w => { w.WriteStartElement("p", "a"); w.WriteXmlnsAttribute("p", "urn:x"); w.WriteAttributeString("q", "b", "v"); w.WriteEndElement(); }));

    [Fact] // the static SOAP dictionary: 487 strings, in order, with its two oddities
    public void SoapDictionary()
    {
        IXmlDictionary soap = Nbfx.SoapDictionary;
        Assert.True(soap.TryLookup(0, out XmlDictionaryString? first) && first.Value == "mustUnderstand");
        Assert.True(soap.TryLookup(1, out XmlDictionaryString? envelope) && envelope.Value == "Envelope");
        Assert.True(soap.TryLookup(81, out XmlDictionaryString? empty) && empty.Value == "");
        Assert.True(soap.TryLookup(212, out XmlDictionaryString? spaced) && spaced.Value == " http://schemas.xmlsoap.org/ws/2005/02/trust/tlsnego");
        Assert.True(soap.TryLookup(486, out XmlDictionaryString? last) && last.Value == "detail");
        Assert.False(soap.TryLookup(487, out _));
        // Envelope in the SOAP dictionary: ShortDictionaryElement with id 2 (index 1 × 2).
        var output = new ArrayBufferWriter<byte>();
        var writer = new NbfxWriter(output, soap);
        writer.WriteStartElement(null, envelope);
        writer.WriteEndElement();
        writer.Flush();
        Assert.Equal("420201", Convert.ToHexString(output.WrittenSpan));
    }
}
