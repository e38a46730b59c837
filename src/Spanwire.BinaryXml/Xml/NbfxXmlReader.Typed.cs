using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Xml;
using Spanwire.BinaryXml.Reading;

namespace Spanwire.BinaryXml.Xml;

// Typed content reads straight from the record, as the in-box reader does for a text that is the whole content of
// its element (a record with its end element folded in, or an array item). Everything else goes through the text,
// as before. Which record kinds convert directly, and how, follows the in-box reader exactly: a float record read as
// a double widens the float rather than parsing its text.
internal sealed partial class NbfxXmlReader
{
    /// <summary>On a text node that is its element's whole content, whose value has not been asked for as a string.</summary>
    private bool OnAtomicText => _atomic && _value is null && _attributeIndex < 0;

    /// <summary>On an element (not an array's) whose one content record, already read ahead, ends it.</summary>
    private bool OnElementWithAtomicText => _nodeType == XmlNodeType.Element && _attributeIndex < 0 && _arrayStep == ArrayStep.None
        && PeekAtomicText();

    // Out of line: inlined, the typed reads would each carry the whole text parse.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool PeekAtomicText() =>
        PeekAfterStartTag() && _c.Token == NbfxTokenType.Text && _c.TextEndsElement && _c.ValueType != NbfxValueType.StartList;

    /// <summary>
    /// On an element, reads its next record ahead once: typed reads of an element look at it to read a text that is
    /// the element's whole content straight from its record.
    /// </summary>
    private bool PeekAfterStartTag()
    {
        if (!_peeked)
        {
            // As for Read: a malformed record leaves the reader in the Error state.
            ReadState state = _state;
            _state = ReadState.Error;
            if (_inputInPlace && _c.TryTextAfterStartTagInPlace(Input))
            {
                _peekedHas = true;
            }
            else
            {
                ReadOnlySpan<byte> window = Window;
                _peekedHas = _c.Read(ref window);
            }

            _peeked = true;
            _state = state;
        }

        return _peekedHas;
    }

    /// <summary>
    /// On an element whose one content record is a text that ends it, that text's value: read where it is when the
    /// input is one array and the cursor reads the record so (<paramref name="end"/> is where the record ends), else
    /// from the record read ahead (<paramref name="end"/> is −1). <see cref="EndAtomicElement"/> then moves past the
    /// element. With <paramref name="endRecord"/>, a text followed by an EndElement record is taken too where it is
    /// read in place (see <see cref="NbfxCursor.TryPeekTextWithEnd"/>).
    /// </summary>
    private bool TryAtomicElementValue(out NbfxValue value, out int end, bool endRecord = false)
    {
        if (OnStartTagInPlace && _c.TryPeekTextWithEnd(Input, endRecord, out value, out end))
        {
            return true;
        }

        end = -1;
        if (OnElementWithAtomicText)
        {
            value = _c.GetValue(Window);
            return true;
        }

        value = default;
        return false;
    }

    /// <summary>Past the element whose text <see cref="TryAtomicElementValue"/> gave; the reader moves to the node after.</summary>
    private void EndAtomicElement(int end)
    {
        if (end >= 0)
        {
            _c.TakeTextWithEnd(end);
            PopFrame();
            Read();
        }
        else
        {
            SkipAtomicElement();
        }
    }

    /// <summary>On an element's start tag read from one array, with nothing read after it yet.</summary>
    private bool OnStartTagInPlace => _inputInPlace && !_peeked && _nodeType == XmlNodeType.Element && _attributeIndex < 0 && _arrayStep == ArrayStep.None;

    /// <summary>The kind of the current text node's value, without building the value.</summary>
    private NbfxValueType CurrentValueType => _valueFromItem ? _arrayType : _c.ValueType;

    /// <summary>Consumes the read-ahead text and the end element it carries; the reader moves to the node after.</summary>
    private void SkipAtomicElement()
    {
        _peeked = false;
        _c.TakePendingEnd(); // the end element the text carried
        PopFrame();
        Read();
    }

    /// <summary>
    /// On an attribute, its value (the reader stays there, as in-box); elsewhere the text up to the next markup. As
    /// in-box, this (and what reads through it: ReadElementContentAsString, ReadString) is where MaxStringContentLength
    /// applies; Value, typed reads and ReadValueChunk pass text of any length.
    /// </summary>
    public override string ReadContentAsString() => ReadContentText(_quotas.MaxStringContentLength);

    /// <summary>ReadContentAsString with <paramref name="quota"/> for its limit: typed reads through the text have none.</summary>
    private string ReadContentText(int quota)
    {
        if (_attributeIndex >= 0)
        {
            if (_onAttributeValue && _attributeValueSeen)
            {
                string value = _attributeValueHandedOver ? "" : AttributeValue(_attributeIndex);
                _attributeValueHandedOver = true;
                _nodeTouched = true;
                return WithinStringQuota(value, quota);
            }

            return WithinStringQuota(AttributeValue(_attributeIndex), quota);
        }

        if (OnAtomicText)
        {
            string value = WithinStringQuota(CurrentValue.ToText(), quota);
            Read();
            return value;
        }

        if (_atomic && _value is not null && _attributeIndex < 0)
        {
            // As in-box: once the value has been made a string, reading it as content hands it over and leaves an
            // empty text node where it was, without moving on.
            string value = WithinStringQuota(ValueLeft()!, quota);
            _value = "";
            return value;
        }

        return ReadContentAsString(quota);
    }

    /// <summary>The string read as content, refused as the in-box reader refuses one longer than MaxStringContentLength.</summary>
    private static string WithinStringQuota(string value, int quota)
    {
        if (value.Length > quota)
        {
            ThrowStringQuotaExceeded(quota);
        }

        return value;
    }

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowStringQuotaExceeded(int quota) =>
        throw new XmlException(string.Format(CultureInfo.InvariantCulture,
            "The maximum string content length quota ({0}) has been exceeded while reading XML data. This quota may be increased by changing the MaxStringContentLength property on the XmlDictionaryReaderQuotas object used when creating the XML reader.", quota));

    /// <summary>
    /// As in-box: an attribute's value, or a text that is its element's whole content, not yet asked for as a string,
    /// is of its record's type; other text is a string unless it is bytes.
    /// </summary>
    public override Type ValueType
    {
        get
        {
            if (_attributeIndex >= 0)
            {
                AttributeNode a = _attributes[_attributeIndex];
                return a.Binding < 0 && !_attributeValueSeen
                    ? NbfxValue.ClrTypeOf(a.ValueType)
                    : typeof(string);
            }

            return _value is null && _nodeType == XmlNodeType.Text && NbfxValue.ClrTypeOf(CurrentValueType) is var type && (_atomic || type == typeof(byte[]))
                ? type
                : typeof(string);
        }
    }

    /// <summary>As in-box: the value of a text node or attribute whose record is a dictionary string (not an xmlns attribute's).</summary>
    public override bool TryGetValueAsDictionaryString([NotNullWhen(true)] out XmlDictionaryString? value)
    {
        if (_attributeIndex >= 0)
        {
            AttributeNode a = _attributes[_attributeIndex];
            value = !a.IsXmlns && a.ValueType == NbfxValueType.Dictionary ? a.ValueString : null;
        }
        else
        {
            value = _nodeType == XmlNodeType.Text && !_valueFromItem && _c.ValueType == NbfxValueType.Dictionary ? _c.ValueString : null;
        }

        return value is not null;
    }

    /// <summary>As in-box: the types the binary reader reads itself go to their own typed read; others to XmlReader's.</summary>
    public override object ReadContentAs(Type returnType, IXmlNamespaceResolver? namespaceResolver)
    {
        if (returnType == typeof(ulong))
        {
            if (OnAtomicText)
            {
                ulong value = ToUInt64(CurrentValue);
                Read();
                return value;
            }

            return ReadContentAs(ParseUInt64, "UInt64");
        }

        return returnType == typeof(bool) ? ReadContentAsBoolean()
            : returnType == typeof(int) ? ReadContentAsInt()
            : returnType == typeof(long) ? ReadContentAsLong()
            : returnType == typeof(float) ? ReadContentAsFloat()
            : returnType == typeof(double) ? ReadContentAsDouble()
            : returnType == typeof(decimal) ? ReadContentAsDecimal()
            : returnType == typeof(DateTime) ? ReadContentAsDateTime()
            : returnType == typeof(UniqueId) ? ReadContentAsUniqueId()
            : returnType == typeof(Guid) ? ReadContentAsGuid()
            : returnType == typeof(TimeSpan) ? ReadContentAsTimeSpan()
            : returnType == typeof(object) ? ReadContentAsObject()
            : base.ReadContentAs(returnType, namespaceResolver);
    }

    /// <summary>As in-box: a sign and surrounding white space allowed, so "-0" is 0.</summary>
    private static ulong ParseUInt64(string text) => ulong.Parse(text, NumberStyles.Integer, NumberFormatInfo.InvariantInfo);

    /// <summary>The in-box reader's UInt64 of a record: integers that are not negative and UInt64 as they are, anything else through its text.</summary>
    private static ulong ToUInt64(in NbfxValue v)
    {
        if (v.Type == NbfxValueType.UInt64)
        {
            return BinaryPrimitives.ReadUInt64LittleEndian(v.Payload);
        }

        if (v.IsInteger && v.ToInt64() is var wide && wide >= 0)
        {
            return (ulong)wide;
        }

        string text = v.ToText();
        try
        {
            return ParseUInt64(text);
        }
        catch (Exception e) when (e is FormatException or OverflowException)
        {
            throw new XmlException($"The value '{text}' cannot be parsed as the type 'UInt64'.", e);
        }
    }

    public override object ReadContentAsObject()
    {
        // As in-box, a typed attribute value (not yet asked for as a string) is its record's value, not its text.
        if (_attributeIndex >= 0 && !_attributeValueSeen && _attributeValueOverride is null
            && _attributes[_attributeIndex] is { Binding: < 0, IsXmlns: false, ChunkText: null } a && a.ValueType != NbfxValueType.StartList)
        {
            return new NbfxValue(a.ValueType, _attributePayloads.AsSpan(a.PayloadStart, a.PayloadLength), a.ValueString, a.QNamePrefixLetter, a.ValueOffset).ToObject();
        }

        if (OnAtomicText)
        {
            object value = CurrentValue.ToObject();
            Read();
            return value;
        }

        return ReadContentAsString();
    }

    public override string ReadElementContentAsString()
    {
        if (TryAtomicElementValue(out NbfxValue atomic, out int end, endRecord: true))
        {
            string value = WithinStringQuota(atomic.ToText(), _quotas.MaxStringContentLength);
            EndAtomicElement(end);
            return value;
        }

        return base.ReadElementContentAsString();
    }

    public override int ReadContentAsInt()
    {
        if (OnAtomicText && TryInt32(CurrentValue, out int value))
        {
            Read();
            return value;
        }

        return ReadContentAs(XmlConvert.ToInt32, "Int32");
    }

    public override int ReadElementContentAsInt()
    {
        if (OnStartTagInPlace && _c.TryPeekInt32TextWithEnd(Input, out int direct, out int directEnd))
        {
            EndAtomicElement(directEnd);
            return direct;
        }

        if (TryAtomicElementValue(out NbfxValue atomic, out int end) && TryInt32(atomic, out int value))
        {
            EndAtomicElement(end);
            return value;
        }

        return base.ReadElementContentAsInt();
    }

    public override long ReadContentAsLong()
    {
        if (OnAtomicText && TryInt64(CurrentValue, out long value))
        {
            Read();
            return value;
        }

        return ReadContentAs(XmlConvert.ToInt64, "Int64");
    }

    public override long ReadElementContentAsLong()
    {
        if (TryAtomicElementValue(out NbfxValue atomic, out int end) && TryInt64(atomic, out long value))
        {
            EndAtomicElement(end);
            return value;
        }

        return base.ReadElementContentAsLong();
    }

    public override double ReadContentAsDouble()
    {
        if (OnAtomicText && TryDouble(CurrentValue, out double value))
        {
            Read();
            return value;
        }

        return ReadContentAs(XmlConvert.ToDouble, "double");
    }

    public override double ReadElementContentAsDouble()
    {
        if (TryAtomicElementValue(out NbfxValue atomic, out int end) && TryDouble(atomic, out double value))
        {
            EndAtomicElement(end);
            return value;
        }

        return base.ReadElementContentAsDouble();
    }

    public override float ReadContentAsFloat()
    {
        if (OnAtomicText && TrySingle(CurrentValue, out float value))
        {
            Read();
            return value;
        }

        return ReadContentAs(XmlConvert.ToSingle, "float");
    }

    public override float ReadElementContentAsFloat()
    {
        if (TryAtomicElementValue(out NbfxValue atomic, out int end) && TrySingle(atomic, out float value))
        {
            EndAtomicElement(end);
            return value;
        }

        return base.ReadElementContentAsFloat();
    }

    public override decimal ReadContentAsDecimal()
    {
        if (OnAtomicText && TryDecimal(CurrentValue, out decimal value))
        {
            Read();
            return value;
        }

        return ReadContentAs(XmlConvert.ToDecimal, "decimal");
    }

    public override decimal ReadElementContentAsDecimal()
    {
        if (TryAtomicElementValue(out NbfxValue atomic, out int end) && TryDecimal(atomic, out decimal value))
        {
            EndAtomicElement(end);
            return value;
        }

        return base.ReadElementContentAsDecimal();
    }

    public override bool ReadContentAsBoolean()
    {
        if (OnAtomicText && TryBoolean(CurrentValue, out bool value))
        {
            Read();
            return value;
        }

        return ReadContentAs(XmlConvert.ToBoolean, "Boolean");
    }

    public override bool ReadElementContentAsBoolean()
    {
        if (TryAtomicElementValue(out NbfxValue atomic, out int end) && TryBoolean(atomic, out bool value))
        {
            EndAtomicElement(end);
            return value;
        }

        return base.ReadElementContentAsBoolean();
    }

    public override DateTime ReadContentAsDateTime()
    {
        if (OnAtomicText && CurrentValueType == NbfxValueType.DateTime)
        {
            DateTime value = CurrentValue.ToDateTime();
            Read();
            return value;
        }

        return ReadContentAs(static text => XmlConvert.ToDateTime(text, XmlDateTimeSerializationMode.RoundtripKind), "DateTime");
    }

    public override DateTime ReadElementContentAsDateTime()
    {
        if (OnStartTagInPlace && _c.TryPeekDateTimeTextWithEnd(Input, out DateTime direct, out int directEnd))
        {
            EndAtomicElement(directEnd);
            return direct;
        }

        if (TryAtomicElementValue(out NbfxValue atomic, out int end) && atomic.Type == NbfxValueType.DateTime)
        {
            DateTime value = atomic.ToDateTime();
            EndAtomicElement(end);
            return value;
        }

        return base.ReadElementContentAsDateTime();
    }

    public override TimeSpan ReadContentAsTimeSpan()
    {
        if (OnAtomicText && CurrentValueType == NbfxValueType.TimeSpan)
        {
            TimeSpan value = CurrentValue.ToTimeSpan();
            Read();
            return value;
        }

        return ReadContentAs(XmlConvert.ToTimeSpan, "TimeSpan");
    }

    public override TimeSpan ReadElementContentAsTimeSpan()
    {
        if (TryAtomicElementValue(out NbfxValue atomic, out int end) && atomic.Type == NbfxValueType.TimeSpan)
        {
            TimeSpan value = atomic.ToTimeSpan();
            EndAtomicElement(end);
            return value;
        }

        return base.ReadElementContentAsTimeSpan();
    }

    public override Guid ReadContentAsGuid()
    {
        if (OnAtomicText && CurrentValueType == NbfxValueType.Guid)
        {
            Guid value = CurrentValue.ToGuid();
            Read();
            return value;
        }

        return ReadContentAs(static text => new Guid(text.Trim(s_xmlWhitespace)), "Guid");
    }

    public override Guid ReadElementContentAsGuid()
    {
        if (TryAtomicElementValue(out NbfxValue atomic, out int end) && atomic.Type == NbfxValueType.Guid)
        {
            Guid value = atomic.ToGuid();
            EndAtomicElement(end);
            return value;
        }

        return base.ReadElementContentAsGuid();
    }

    public override UniqueId ReadContentAsUniqueId()
    {
        if (OnAtomicText && CurrentValueType == NbfxValueType.UniqueId)
        {
            UniqueId value = CurrentValue.ToUniqueId();
            Read();
            return value;
        }

        return ReadContentAs(static text => new UniqueId(text.Trim(s_xmlWhitespace)), "UniqueId");
    }

    public override UniqueId ReadElementContentAsUniqueId()
    {
        if (TryAtomicElementValue(out NbfxValue atomic, out int end) && atomic.Type == NbfxValueType.UniqueId)
        {
            UniqueId value = atomic.ToUniqueId();
            EndAtomicElement(end);
            return value;
        }

        return base.ReadElementContentAsUniqueId();
    }

    private static readonly char[] s_xmlWhitespace = [' ', '\t', '\r', '\n'];

    /// <summary>The content as text, parsed as the in-box reader parses it; a value that does not parse is an XmlException.</summary>
    private T ReadContentAs<T>(Func<string, T> parse, string typeName)
    {
        string text = ReadContentText(int.MaxValue);
        try
        {
            return parse(text);
        }
        catch (Exception e) when (e is FormatException or OverflowException or ArgumentException)
        {
            throw new XmlException($"The value '{(text.Length > 32 ? text[..32] + "…" : text)}' cannot be parsed as the type '{typeName}'.", e);
        }
    }

    // The in-box reader's direct conversions; any other kind is read through its text.

    private static bool TryInt32(in NbfxValue v, out int value)
    {
        switch (v.Type)
        {
            case NbfxValueType.Zero or NbfxValueType.One or NbfxValueType.Int8 or NbfxValueType.Int16 or NbfxValueType.Int32:
                value = (int)v.ToInt64();
                return true;
            case NbfxValueType.Int64 or NbfxValueType.UInt64 when TryInt64(v, out long wide) && wide is >= int.MinValue and <= int.MaxValue:
                value = (int)wide;
                return true;
            default:
                value = 0;
                return false;
        }
    }

    private static bool TryInt64(in NbfxValue v, out long value)
    {
        if (v.IsInteger || v.Type == NbfxValueType.UInt64 && BinaryPrimitives.ReadUInt64LittleEndian(v.Payload) <= long.MaxValue)
        {
            value = v.ToInt64();
            return true;
        }

        value = 0;
        return false;
    }

    private static bool TryDouble(in NbfxValue v, out double value)
    {
        bool direct = v.Type is NbfxValueType.Double or NbfxValueType.Float or NbfxValueType.Zero or NbfxValueType.One
            or NbfxValueType.Int8 or NbfxValueType.Int16 or NbfxValueType.Int32;
        value = direct ? v.ToDouble() : 0;
        return direct;
    }

    private static bool TrySingle(in NbfxValue v, out float value)
    {
        switch (v.Type)
        {
            case NbfxValueType.Float or NbfxValueType.Zero or NbfxValueType.One or NbfxValueType.Int8 or NbfxValueType.Int16:
                value = v.ToSingle();
                return true;
            case NbfxValueType.Double:
                double wide = BinaryPrimitives.ReadDoubleLittleEndian(v.Payload);
                value = (float)wide;
                return wide is >= float.MinValue and <= float.MaxValue || !double.IsFinite(wide);
            default:
                value = 0;
                return false;
        }
    }

    private static bool TryDecimal(in NbfxValue v, out decimal value)
    {
        bool direct = v.Type is NbfxValueType.Decimal or NbfxValueType.UInt64 || v.IsInteger;
        value = direct ? v.ToDecimal() : 0;
        return direct;
    }

    private static bool TryBoolean(in NbfxValue v, out bool value)
    {
        switch (v.Type)
        {
            case NbfxValueType.True or NbfxValueType.False or NbfxValueType.Bool:
                value = v.ToBoolean();
                return true;
            case NbfxValueType.Int8 when v.Payload[0] <= 1:
                value = v.Payload[0] == 1;
                return true;
            default:
                value = false;
                return false;
        }
    }
}
