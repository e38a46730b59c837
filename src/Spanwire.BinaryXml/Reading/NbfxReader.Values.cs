using System.Xml;
using Spanwire.BinaryXml.Reading;

namespace Spanwire.BinaryXml;

public ref partial struct NbfxReader
{
    /// <summary>The kind of the current value: of a text token, an attribute, a namespace declaration (Chars or Dictionary) or a comment (Chars).</summary>
    public readonly NbfxValueType ValueType => _cursor.ValueType;

    /// <summary>The value's payload as it is in the record: UTF-8 for Chars, UTF-16LE for UnicodeChars, raw bytes for Bytes, the fixed-size bytes for numbers; empty for dictionary kinds.</summary>
    public readonly ReadOnlySpan<byte> ValueSpan => _window.Slice(_cursor.ValueStart, _cursor.ValueLength);

    /// <summary>The dictionary string of a Dictionary or QNameDictionary value, else null.</summary>
    public readonly XmlDictionaryString? ValueDictionaryString => _cursor.ValueString;

    /// <summary>The prefix letter of a QNameDictionary value ('a'..'z').</summary>
    public readonly char QNamePrefix => (char)('a' + _cursor.QNamePrefixLetter);

    private readonly NbfxValue Value => _cursor.GetValue(_window);

    /// <summary>An integer value (Zero, One, Int8..Int32, or a larger record within range).</summary>
    /// <exception cref="InvalidOperationException">The value is not an integer in range.</exception>
    /// <returns>The value, converted as the in-box reader converts it.</returns>
    public readonly int GetInt32() => Value.ToInt32();

    /// <summary>An integer value (Zero, One, Int8..Int64, UInt64 within range).</summary>
    /// <returns>The value, converted as the in-box reader converts it.</returns>
    public readonly long GetInt64() => Value.ToInt64();

    /// <summary>A non-negative integer or UInt64 value.</summary>
    /// <returns>The value, converted as the in-box reader converts it.</returns>
    public readonly ulong GetUInt64() => Value.ToUInt64();

    /// <summary>A Float, Double or integer value as a float.</summary>
    /// <returns>The value, converted as the in-box reader converts it.</returns>
    public readonly float GetSingle() => Value.ToSingle();

    /// <summary>A Double, Float or integer value as a double.</summary>
    /// <returns>The value, converted as the in-box reader converts it.</returns>
    public readonly double GetDouble() => Value.ToDouble();

    /// <summary>A Decimal or integer value.</summary>
    /// <returns>The value, converted as the in-box reader converts it.</returns>
    public readonly decimal GetDecimal() => Value.ToDecimal();

    /// <summary>A True, False or Bool value.</summary>
    /// <returns>The value, converted as the in-box reader converts it.</returns>
    public readonly bool GetBoolean() => Value.ToBoolean();

    /// <summary>A DateTime value (local times come back in this machine's zone, as the in-box reader gives them).</summary>
    /// <returns>The value, converted as the in-box reader converts it.</returns>
    public readonly DateTime GetDateTime() => Value.ToDateTime();

    /// <summary>A TimeSpan value.</summary>
    /// <returns>The value, converted as the in-box reader converts it.</returns>
    public readonly TimeSpan GetTimeSpan() => Value.ToTimeSpan();

    /// <summary>A Guid (or UniqueId) value.</summary>
    /// <returns>The value, converted as the in-box reader converts it.</returns>
    public readonly Guid GetGuid() => Value.ToGuid();

    /// <summary>A UniqueId (or Guid) value.</summary>
    /// <returns>The value, converted as the in-box reader converts it.</returns>
    public readonly UniqueId GetUniqueId() => Value.ToUniqueId();

    /// <summary>The value as text, exactly as the in-box reader's <see cref="XmlReader.Value"/> shows it (allocates).</summary>
    /// <returns>The text.</returns>
    public readonly string GetString() => Value.ToText();

    /// <summary>The UTF-16 length of a characters value (Chars, UnicodeChars, Empty, Dictionary).</summary>
    /// <returns>How many characters the text has.</returns>
    public readonly int GetCharCount() => Value.GetCharCount();

    /// <summary>Copies a characters value into <paramref name="destination"/> without allocating; returns the chars written.</summary>
    /// <param name="destination">Where the characters go; at least <see cref="GetCharCount"/> long.</param>
    /// <returns>How many characters were copied.</returns>
    public readonly int CopyString(scoped Span<char> destination) => Value.CopyChars(destination);
}
