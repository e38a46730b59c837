using System.Xml;

namespace Spanwire.BinaryXml.Xml;

internal sealed partial class NbfxXmlWriter
{
    private delegate void ArrayValues<T>(NbfxWriter writer, ReadOnlySpan<T> values);

    // As the in-box writer: an array record, then the element (start and end, through the writer's own rules, so its
    // namespaces are declared as for any element), then the values. The dictionary overloads pass the strings.
    private void WriteArrayCore<T>(string? prefix, string localName, XmlDictionaryString? dictionaryName, string? ns,
        XmlDictionaryString? dictionaryNs, T[] array, int offset, int count, ArrayValues<T> values)
    {
        _ = dictionaryName;
        _ = dictionaryNs;
        ThrowIfClosed();
        ArrayArguments.Check(array, offset, count);
        if (count == 0)
        {
            return;
        }

        FlushBase64();
        if (_documentState == DocumentState.Epilog || (_documentState == DocumentState.Document && count > 1 && _depth == 0))
        {
            throw new InvalidOperationException("Only one root element is permitted per document.");
        }

        if (_writeState == WriteState.Attribute)
        {
            ThrowInvalidState(nameof(WriteStartElement));
        }

        AutoComplete(WriteState.Content);
        _writer.WriteStartArray();
        WriteStartElement(prefix, localName, ns);

        // WriteEndElement's steps for an element still open; the record layer writes the end with the values.
        _namespaces.DeclareNamespaces(_writer);
        values(_writer, array.AsSpan(offset, count));
        ExitScope();
        _writeState = WriteState.Content;
    }

    private static readonly ArrayValues<bool> s_bool = (w, v) => w.WriteArrayValues(v);
    private static readonly ArrayValues<short> s_int16 = (w, v) => w.WriteArrayValues(v);
    private static readonly ArrayValues<int> s_int32 = (w, v) => w.WriteArrayValues(v);
    private static readonly ArrayValues<long> s_int64 = (w, v) => w.WriteArrayValues(v);
    private static readonly ArrayValues<float> s_float = (w, v) => w.WriteArrayValues(v);
    private static readonly ArrayValues<double> s_double = (w, v) => w.WriteArrayValues(v);
    private static readonly ArrayValues<decimal> s_decimal = (w, v) => w.WriteArrayValues(v);
    private static readonly ArrayValues<DateTime> s_dateTime = (w, v) => w.WriteArrayValues(v);
    private static readonly ArrayValues<Guid> s_guid = (w, v) => w.WriteArrayValues(v);
    private static readonly ArrayValues<TimeSpan> s_timeSpan = (w, v) => w.WriteArrayValues(v);

    public override void WriteArray(string? prefix, string localName, string? namespaceUri, bool[] array, int offset, int count) => WriteArrayCore(prefix, localName, null, namespaceUri, null, array, offset, count, s_bool);
    public override void WriteArray(string? prefix, XmlDictionaryString localName, XmlDictionaryString? namespaceUri, bool[] array, int offset, int count) => WriteArrayCore(prefix, localName?.Value!, null, namespaceUri?.Value, null, array, offset, count, s_bool);
    public override void WriteArray(string? prefix, string localName, string? namespaceUri, short[] array, int offset, int count) => WriteArrayCore(prefix, localName, null, namespaceUri, null, array, offset, count, s_int16);
    public override void WriteArray(string? prefix, XmlDictionaryString localName, XmlDictionaryString? namespaceUri, short[] array, int offset, int count) => WriteArrayCore(prefix, localName?.Value!, null, namespaceUri?.Value, null, array, offset, count, s_int16);
    public override void WriteArray(string? prefix, string localName, string? namespaceUri, int[] array, int offset, int count) => WriteArrayCore(prefix, localName, null, namespaceUri, null, array, offset, count, s_int32);
    public override void WriteArray(string? prefix, XmlDictionaryString localName, XmlDictionaryString? namespaceUri, int[] array, int offset, int count) => WriteArrayCore(prefix, localName?.Value!, null, namespaceUri?.Value, null, array, offset, count, s_int32);
    public override void WriteArray(string? prefix, string localName, string? namespaceUri, long[] array, int offset, int count) => WriteArrayCore(prefix, localName, null, namespaceUri, null, array, offset, count, s_int64);
    public override void WriteArray(string? prefix, XmlDictionaryString localName, XmlDictionaryString? namespaceUri, long[] array, int offset, int count) => WriteArrayCore(prefix, localName?.Value!, null, namespaceUri?.Value, null, array, offset, count, s_int64);
    public override void WriteArray(string? prefix, string localName, string? namespaceUri, float[] array, int offset, int count) => WriteArrayCore(prefix, localName, null, namespaceUri, null, array, offset, count, s_float);
    public override void WriteArray(string? prefix, XmlDictionaryString localName, XmlDictionaryString? namespaceUri, float[] array, int offset, int count) => WriteArrayCore(prefix, localName?.Value!, null, namespaceUri?.Value, null, array, offset, count, s_float);
    public override void WriteArray(string? prefix, string localName, string? namespaceUri, double[] array, int offset, int count) => WriteArrayCore(prefix, localName, null, namespaceUri, null, array, offset, count, s_double);
    public override void WriteArray(string? prefix, XmlDictionaryString localName, XmlDictionaryString? namespaceUri, double[] array, int offset, int count) => WriteArrayCore(prefix, localName?.Value!, null, namespaceUri?.Value, null, array, offset, count, s_double);
    public override void WriteArray(string? prefix, string localName, string? namespaceUri, decimal[] array, int offset, int count) => WriteArrayCore(prefix, localName, null, namespaceUri, null, array, offset, count, s_decimal);
    public override void WriteArray(string? prefix, XmlDictionaryString localName, XmlDictionaryString? namespaceUri, decimal[] array, int offset, int count) => WriteArrayCore(prefix, localName?.Value!, null, namespaceUri?.Value, null, array, offset, count, s_decimal);
    public override void WriteArray(string? prefix, string localName, string? namespaceUri, DateTime[] array, int offset, int count) => WriteArrayCore(prefix, localName, null, namespaceUri, null, array, offset, count, s_dateTime);
    public override void WriteArray(string? prefix, XmlDictionaryString localName, XmlDictionaryString? namespaceUri, DateTime[] array, int offset, int count) => WriteArrayCore(prefix, localName?.Value!, null, namespaceUri?.Value, null, array, offset, count, s_dateTime);
    public override void WriteArray(string? prefix, string localName, string? namespaceUri, Guid[] array, int offset, int count) => WriteArrayCore(prefix, localName, null, namespaceUri, null, array, offset, count, s_guid);
    public override void WriteArray(string? prefix, XmlDictionaryString localName, XmlDictionaryString? namespaceUri, Guid[] array, int offset, int count) => WriteArrayCore(prefix, localName?.Value!, null, namespaceUri?.Value, null, array, offset, count, s_guid);
    public override void WriteArray(string? prefix, string localName, string? namespaceUri, TimeSpan[] array, int offset, int count) => WriteArrayCore(prefix, localName, null, namespaceUri, null, array, offset, count, s_timeSpan);
    public override void WriteArray(string? prefix, XmlDictionaryString localName, XmlDictionaryString? namespaceUri, TimeSpan[] array, int offset, int count) => WriteArrayCore(prefix, localName?.Value!, null, namespaceUri?.Value, null, array, offset, count, s_timeSpan);
}
