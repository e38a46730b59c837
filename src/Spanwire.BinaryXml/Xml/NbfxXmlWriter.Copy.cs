using System.Buffers;
using System.Xml;

namespace Spanwire.BinaryXml.Xml;

internal sealed partial class NbfxXmlWriter
{
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
                char[] chars = ArrayPool<char>.Shared.Rent(256);
                int count;
                while ((count = reader.ReadValueChunk(chars, 0, 256)) > 0)
                {
                    WriteChars(chars, 0, count);
                }

                ArrayPool<char>.Shared.Return(chars);
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
                byte[] bytes = ArrayPool<byte>.Shared.Rent(384);
                int count;
                while ((count = reader.ReadValueAsBase64(bytes, 0, 384)) > 0) // a multiple of 3: no piece but the last is padded
                {
                    WriteBase64(bytes, 0, count);
                }

                ArrayPool<byte>.Shared.Return(bytes);
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
