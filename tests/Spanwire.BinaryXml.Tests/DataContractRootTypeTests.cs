using System.Collections;
using System.Runtime.Serialization;
using System.Xml;
using System.Xml.Linq;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// DataContractSerializer with root types of every family it treats apart (primitives at their limits, arrays it
/// writes as binary arrays, collections, dictionaries, ISerializable, IXmlSerializable, XML nodes, references and
/// cycles). The in-box writer and reader are the control: the drop-in writer must give its bytes, and the drop-in
/// reader must give back what the in-box reader gives, whichever writer wrote them.
/// </summary>
public class DataContractRootTypeTests
{
    [DataContract(Namespace = "urn:roots")]
    public sealed class Node
    {
        [DataMember] public string? Name { get; set; }
        [DataMember] public Node? Next { get; set; }
    }

    [DataContract(Namespace = "urn:roots", IsReference = true)]
    public sealed class Shared
    {
        [DataMember] public int Value { get; set; }
    }

    [Flags]
    public enum Colors { Red = 1, Green = 2, Blue = 4 }

    private static readonly Type[] s_knownTypes =
    [
        typeof(int[]), typeof(DateTimeOffset), typeof(List<object>), typeof(Colors), typeof(Node),
        typeof(bool[]), typeof(short[]), typeof(long[]), typeof(float[]), typeof(double[]), typeof(decimal[]),
        typeof(DateTime[]), typeof(TimeSpan[]), typeof(Guid[]),
    ];

    public static TheoryData<string, Type, Func<object?>, bool> Roots()
    {
        var offsetOfMinutes = new DateTimeOffset(2013, 1, 2, 3, 4, 5, 6, TimeSpan.FromHours(-8));
        return new()
        {
            { "DateTimeOffset array: each one an element with its own namespace declaration", typeof(DateTimeOffset[]), () => new[] { offsetOfMinutes, DateTimeOffset.MinValue.ToUniversalTime(), DateTimeOffset.MaxValue.ToUniversalTime() }, false },
            { "DateTime of every kind and both limits (a binary array of DateTime)", typeof(DateTime[]), () => new[] { new DateTime(2013, 1, 2, 3, 4, 5, 6, DateTimeKind.Utc), new DateTime(2013, 1, 2, 3, 4, 5, 6, DateTimeKind.Unspecified), DateTime.MinValue, DateTime.MaxValue }, false },
            { "Dictionary<string, object> with values of known types and a null", typeof(Dictionary<string, object?>), () => new Dictionary<string, object?> { ["a"] = 1, ["b"] = "x", ["c"] = new[] { 1, 2 }, ["d"] = null, ["e"] = 1.5, ["f"] = Colors.Green }, false },
            { "Hashtable", typeof(Hashtable), () => new Hashtable { ["k"] = 2 }, false },
            { "flags enum: a list of names", typeof(Colors), () => Colors.Red | Colors.Blue, false },
            { "nullable items: i:nil attributes", typeof(int?[]), () => new int?[] { 1, null, 3 }, false },
            { "chars written as numbers, including NUL and U+FFFF", typeof(char[]), () => new[] { 'a', '\0', '\uFFFF', '<' }, false },
            { "byte[] of 70,000 (base64 records over many chunks)", typeof(byte[]), () => Enumerable.Range(0, 70_000).Select(i => (byte)i).ToArray(), false },
            { "strings: empty, null, markup, white space, over 8,192 chars, a surrogate pair", typeof(string?[]), () => new[] { "", null, "a<b>&c", "\r\n\t ", new string('x', 9000), "\uD83D\uDE00 emoji", "  lead trail  " }, false },
            { "XElement with a comment and a default namespace", typeof(XElement), () => XElement.Parse("<r xmlns='urn:x' a='1'><c>t</c><!--k--></r>"), false },
            { "XmlElement", typeof(XmlElement), () => new XmlDocument { InnerXml = "<r a='1'><c>t</c></r>" }.DocumentElement, false },
            { "XmlNode[] holding a text node", typeof(XmlNode[]), () => new XmlNode[] { new XmlDocument().CreateTextNode("hi") }, false },
            { "an exception: ISerializable", typeof(InvalidOperationException), () => new InvalidOperationException("boom"), false },
            { "Uri", typeof(Uri), () => new Uri("http://example.com/a?b=c"), false },
            { "XmlQualifiedName: a QName value with its prefix declared", typeof(XmlQualifiedName), () => new XmlQualifiedName("n", "urn:q"), false },
            { "object[] of primitives at their limits", typeof(object[]), () => new object[] { TimeSpan.FromTicks(-1), new Guid("00112233-4455-6677-8899-aabbccddeeff"), 79228162514264337593543950335m, -0.0, double.NaN, float.PositiveInfinity, (sbyte)-1, (ushort)65535, uint.MaxValue, ulong.MaxValue, (byte)255, (short)-32768, long.MinValue }, false },
            { "every array type the serializer writes as a binary array", typeof(object[]), () => new object[] { new[] { true, false }, new short[] { 1, -1 }, new[] { int.MinValue }, new[] { long.MaxValue }, new[] { 1.5f }, new[] { 2.5 }, new[] { 1.1m }, new[] { new DateTime(2000, 1, 1) }, new[] { TimeSpan.MaxValue }, new[] { Guid.Empty } }, false },
            { "jagged array with an empty and a null row", typeof(int[]?[]), () => new[] { new[] { 1 }, Array.Empty<int>(), null }, false },
            { "a cycle, with PreserveObjectReferences", typeof(Node), () => { var a = new Node { Name = "a" }; a.Next = new Node { Name = "b", Next = a }; return a; }, true },
            { "IsReference: one object twice (z:Id and z:Ref)", typeof(List<Shared>), () => { var shared = new Shared { Value = 7 }; return new List<Shared> { shared, shared }; }, false },
            { "List<object> of mixed known types (i:type attributes)", typeof(List<object>), () => new List<object> { 1, "s", DateTimeOffset.UnixEpoch, new[] { 3 } }, false },
            { "an empty int array", typeof(int[]), () => Array.Empty<int>(), false },
            { "an int array of 100,000 (a binary array in several records)", typeof(int[]), () => Enumerable.Range(0, 100_000).ToArray(), false },
        };
    }

    [Theory]
    [MemberData(nameof(Roots))]
    public void Both_writers_give_the_same_bytes_and_both_readers_the_same_graph(string why, Type type, Func<object?> value, bool preserveReferences)
    {
        var serializer = new DataContractSerializer(type, new DataContractSerializerSettings { KnownTypes = s_knownTypes, PreserveObjectReferences = preserveReferences });

        byte[] inBoxBytes = Write(serializer, value(), stream => XmlDictionaryWriter.CreateBinaryWriter(stream, null, null, false));
        byte[] ourBytes = Write(serializer, value(), stream => Nbfx.CreateWriter(stream, null, null, ownsStream: false));
        Assert.True(Convert.ToHexString(inBoxBytes) == Convert.ToHexString(ourBytes), $"{why}: the drop-in writer's bytes differ from the in-box writer's");

        string control = Read(serializer, XmlDictionaryReader.CreateBinaryReader(inBoxBytes, XmlDictionaryReaderQuotas.Max), type, preserveReferences);
        var inputs = new (string Input, Func<XmlDictionaryReader> Open)[]
        {
            ("one array", () => Nbfx.CreateReader(inBoxBytes, null, XmlDictionaryReaderQuotas.Max)),
            ("segments of 61 bytes", () => Nbfx.CreateReader(ReaderHarness.Split(inBoxBytes, 61), null, XmlDictionaryReaderQuotas.Max)),
            ("a stream", () => Nbfx.CreateReader(new MemoryStream(inBoxBytes), null, XmlDictionaryReaderQuotas.Max)),
        };
        foreach (var (input, open) in inputs)
        {
            string ours = Read(serializer, open(), type, preserveReferences);
            Assert.True(control == ours, $"{why}, from {input}\nin-box reader: {control}\ndrop-in reader: {ours}");
        }
    }

    private static byte[] Write(DataContractSerializer serializer, object? value, Func<Stream, XmlDictionaryWriter> create)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter writer = create(stream))
        {
            serializer.WriteObject(writer, value);
        }

        return stream.ToArray();
    }

    /// <summary>What a reader gave, as the in-box text writer writes it (the graph's own form, comparable as a string).</summary>
    private static string Read(DataContractSerializer serializer, XmlDictionaryReader reader, Type type, bool preserveReferences)
    {
        object? back;
        using (reader)
        {
            back = serializer.ReadObject(reader);
        }

        if (preserveReferences && back is Node node)
        {
            // A cycle cannot be written without references: compare the walk to its first repeat.
            return $"{node.Name}->{node.Next?.Name}->{(ReferenceEquals(node.Next?.Next, node) ? "back to the first" : "elsewhere")}";
        }

        var text = new StringWriter();
        using (XmlWriter writer = XmlWriter.Create(text))
        {
            new DataContractSerializer(type, s_knownTypes).WriteObject(writer, back);
        }

        return text.ToString();
    }
}
