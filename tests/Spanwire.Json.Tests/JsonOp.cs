using System.Text.Json;

namespace Spanwire.Json.Tests;

/// <summary>One writer call, as the same call on Utf8JsonWriter and on JsonWriter.</summary>
public sealed record JsonOp(string Description, Action<Utf8JsonWriter> OnIncumbent, Action<JsonWriter> OnSpanwire)
{
    public override string ToString() => Description;
}
