using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.InteropServices;
using System.Xml;
using Spanwire.BinaryXml.Reading;

namespace Spanwire.BinaryXml.Xml;

// Array records read straight into the caller's array, as the in-box reader does when the reader is on the first
// unread element of an array record of the requested type and name. Otherwise (repeated elements, another type)
// XmlDictionaryReader reads element by element. After the last item the reader is on the node after the array;
// after fewer, it stays on the array's element. The ReadArray overrides, every array type by string and by dictionary
// name, are generated (gen/Spanwire.Generators) and call the readers below.
[GenerateArrayOverloads]
internal sealed partial class NbfxXmlReader
{
    private delegate T ItemReader<T>(ReadOnlySpan<byte> item, long offset);

    private bool OnArrayElement => _arrayStep == ArrayStep.Text;

    public override bool IsStartArray([NotNullWhen(true)] out Type? type)
    {
        type = !OnArrayElement ? null : _arrayType switch
        {
            NbfxValueType.Bool => typeof(bool),
            NbfxValueType.Int16 => typeof(short),
            NbfxValueType.Int32 => typeof(int),
            NbfxValueType.Int64 => typeof(long),
            NbfxValueType.Float => typeof(float),
            NbfxValueType.Double => typeof(double),
            NbfxValueType.Decimal => typeof(decimal),
            NbfxValueType.DateTime => typeof(DateTime),
            NbfxValueType.Guid => typeof(Guid),
            NbfxValueType.TimeSpan => typeof(TimeSpan),
            _ => null,
        };
        return type is not null;
    }

    public override bool TryGetArrayLength(out int count)
    {
        count = OnArrayElement ? _arrayLeft : 0;
        return OnArrayElement;
    }

    private bool IsStartArray(string localName, string namespaceUri, NbfxValueType type) =>
        IsStartElement(localName, namespaceUri) && OnArrayElement && _arrayType == type;

    private bool IsStartArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, NbfxValueType type) =>
        IsStartElement(localName, namespaceUri) && OnArrayElement && _arrayType == type;

    private static readonly ItemReader<decimal> s_decimal = static (item, at) =>
        NbfxPrimitives.TryReadDecimal(item, out decimal value) ? value : ThrowBadItem<decimal>("a decimal with an invalid scale or flags", at);

    private static readonly ItemReader<DateTime> s_dateTime = static (item, at) =>
        NbfxPrimitives.TryDateTimeFromBinary(BinaryPrimitives.ReadInt64LittleEndian(item), out DateTime value) ? value : ThrowBadItem<DateTime>("a DateTime out of range", at);

    private static readonly ItemReader<Guid> s_guid = static (item, _) => new Guid(item);

    private static readonly ItemReader<TimeSpan> s_timeSpan = static (item, _) => new TimeSpan(BinaryPrimitives.ReadInt64LittleEndian(item));

    [DoesNotReturn]
    private static T ThrowBadItem<T>(string message, long at) => throw new NbfxFormatException(message, at);

    /// <summary>Items whose bytes are the value on a little-endian machine: copied as they are.</summary>
    private int ReadRaw<T>(T[] array, int offset, int count) where T : unmanaged
    {
        ArrayArguments.Check(array, offset, count);
        int n = Math.Min(count, _arrayLeft);
        ReadOnlySpan<byte> window = Window;
        _c.CopyTo(ref window, MemoryMarshal.AsBytes(array.AsSpan(offset, n)));
        EndArrayItems(n);
        return n;
    }

    private int ReadBooleans(bool[] array, int offset, int count)
    {
        int n = ReadRaw(array, offset, count);
        Span<byte> bytes = MemoryMarshal.AsBytes(array.AsSpan(offset, n));
        for (int i = 0; i < bytes.Length; i++)
        {
            bytes[i] = bytes[i] != 0 ? (byte)1 : (byte)0; // any non-zero byte is true; keep bool's one representation
        }

        return n;
    }

    /// <summary>Items converted one by one (and checked: decimal flags, DateTime ticks), through a small stack buffer.</summary>
    private int ReadItems<T>(T[] array, int offset, int count, ItemReader<T> convert)
    {
        ArrayArguments.Check(array, offset, count);
        int n = Math.Min(count, _arrayLeft);
        int size = _c.ArrayItemSize;
        Span<byte> chunk = stackalloc byte[256];
        ReadOnlySpan<byte> window = Window;
        for (int done = 0; done < n;)
        {
            int items = Math.Min(n - done, chunk.Length / size);
            long at = _c.Position;
            Span<byte> bytes = chunk[..(items * size)];
            _c.CopyTo(ref window, bytes);
            for (int i = 0; i < items; i++)
            {
                array[offset + done + i] = convert(bytes.Slice(i * size, size), at + (long)i * size);
            }

            done += items;
        }

        EndArrayItems(n);
        return n;
    }

    private void EndArrayItems(int n)
    {
        _c.ConsumeArrayItems(n);
        _arrayLeft -= n;
        if (_arrayLeft == 0)
        {
            _arrayStep = ArrayStep.None;
            _exitScope = true;
            Read();
        }
    }
}
