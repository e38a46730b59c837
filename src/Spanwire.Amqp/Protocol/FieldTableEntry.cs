using System.Text;

namespace Spanwire.Amqp.Protocol;

/// <summary>One field of a table: its name (UTF-8 bytes) and typed value.</summary>
public readonly ref struct FieldTableEntry
{
    internal FieldTableEntry(ReadOnlySpan<byte> name, FieldValue value)
    {
        Name = name;
        Value = value;
    }

    /// <summary>The field name, as UTF-8 bytes.</summary>
    public ReadOnlySpan<byte> Name { get; }

    /// <summary>The field name decoded from UTF-8. Allocates the string.</summary>
    /// <returns>The value.</returns>
    public string GetName() => Encoding.UTF8.GetString(Name);

    /// <summary>The typed value.</summary>
    public FieldValue Value { get; }
}
