using System.Text.Json;

namespace Spanwire.Json.Tests;

/// <summary>One writer call, as the same call on Utf8JsonWriter and on SpanwireJsonWriter.</summary>
public sealed record JsonOp(string Description, Action<Utf8JsonWriter> OnIncumbent, Action<SpanwireJsonWriter> OnSpanwire)
{
    public override string ToString() => Description;
}
