using System.Xml;

namespace Spanwire.BinaryXml.Xml;

internal sealed partial class NbfxXmlWriter
{
    private char[]? _copyChars;
    private byte[]? _copyBytes;

    /// <summary>
    /// A text or attribute value copied by <see cref="XmlDictionaryWriter.WriteNode(XmlDictionaryReader, bool)"/>, as
    /// the in-box binary writer copies it: a dictionary string as itself, text in chunks, bytes as bytes, and a typed
    /// value as a record of its type (a DateTime through its DateTimeOffset, which drops its kind, as in-box), instead
    /// of XmlDictionaryWriter's text for everything.
    /// </summary>
    protected override void WriteTextNode(XmlDictionaryReader reader, bool isAttribute)
    {
        Type type = reader.ValueType;
        if (type == typeof(string))
        {
            if (reader.TryGetValueAsDictionaryString(out XmlDictionaryString? value))
            {
                WriteString(value);
            }
            else if (reader.CanReadValueChunk)
            {
                _copyChars ??= new char[256];
                int count;
                while ((count = reader.ReadValueChunk(_copyChars, 0, _copyChars.Length)) > 0)
                {
                    WriteChars(_copyChars, 0, count);
                }
            }
            else
            {
                WriteString(reader.Value);
            }
        }
        else if (type == typeof(byte[]))
        {
            if (reader.CanReadBinaryContent)
            {
                _copyBytes ??= new byte[384]; // a multiple of 3, so no piece but the last is padded
                int count;
                while ((count = reader.ReadValueAsBase64(_copyBytes, 0, _copyBytes.Length)) > 0)
                {
                    WriteBase64(_copyBytes, 0, count);
                }
            }
            else
            {
                WriteString(reader.Value);
            }
        }
        else
        {
            WriteTypedNode(reader, type);
            return; // the typed reads have moved the reader on already
        }

        if (!isAttribute)
        {
            reader.Read();
        }
    }

    private void WriteTypedNode(XmlDictionaryReader reader, Type type)
    {
        if (type == typeof(int))
        {
            WriteValue(reader.ReadContentAsInt());
        }
        else if (type == typeof(long))
        {
            WriteValue(reader.ReadContentAsLong());
        }
        else if (type == typeof(bool))
        {
            WriteValue(reader.ReadContentAsBoolean());
        }
        else if (type == typeof(double))
        {
            WriteValue(reader.ReadContentAsDouble());
        }
        else if (type == typeof(DateTime))
        {
            WriteValue(reader.ReadContentAsDateTimeOffset().DateTime);
        }
        else if (type == typeof(float))
        {
            WriteValue(reader.ReadContentAsFloat());
        }
        else if (type == typeof(decimal))
        {
            WriteValue(reader.ReadContentAsDecimal());
        }
        else if (type == typeof(UniqueId))
        {
            WriteValue(reader.ReadContentAsUniqueId());
        }
        else if (type == typeof(Guid))
        {
            WriteValue(reader.ReadContentAsGuid());
        }
        else if (type == typeof(TimeSpan))
        {
            WriteValue(reader.ReadContentAsTimeSpan());
        }
        else
        {
            WriteValue(reader.ReadContentAsObject());
        }
    }
}
