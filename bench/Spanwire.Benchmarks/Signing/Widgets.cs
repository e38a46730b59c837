using System.Text.Json.Serialization;

namespace Spanwire.Benchmarks.Signing;

/// <summary>The envelope of the published serialize-and-sign scenario: 3000 widgets, about 1 MB of camelCase JSON.</summary>
public sealed class WidgetEnvelope
{
    public List<Widget> Widgets { get; private set; } = [];

    /// <summary>The scenario's data, the same on every call: Property{n}{index}, ids from a fixed seed, whole-second times.</summary>
    public static WidgetEnvelope Create(int count = 3000)
    {
        var random = new Random(3000);
        var envelope = new WidgetEnvelope();
        var start = new DateTime(2024, 1, 1, 0, 0, 0, DateTimeKind.Utc);
        byte[] id = new byte[16];
        for (int i = 0; i < count; i++)
        {
            random.NextBytes(id);
            envelope.Widgets.Add(new Widget
            {
                Id = new Guid(id),
                Property0 = $"Property0{i}",
                Property1 = $"Property1{i}",
                Property2 = $"Property2{i}",
                Property3 = $"Property3{i}",
                Property4 = $"Property4{i}",
                Property5 = $"Property5{i}",
                Property6 = $"Property6{i}",
                Property7 = $"Property7{i}",
                Property8 = $"Property8{i}",
                Property9 = $"Property9{i}",
                CreatedUtc = start.AddSeconds(i),
            });
        }

        return envelope;
    }
}

/// <summary>One widget: a Guid, ten strings and a UTC time.</summary>
public sealed class Widget
{
    public Guid Id { get; set; }
    public string Property0 { get; set; } = "";
    public string Property1 { get; set; } = "";
    public string Property2 { get; set; } = "";
    public string Property3 { get; set; } = "";
    public string Property4 { get; set; } = "";
    public string Property5 { get; set; } = "";
    public string Property6 { get; set; } = "";
    public string Property7 { get; set; } = "";
    public string Property8 { get; set; } = "";
    public string Property9 { get; set; } = "";
    public DateTime CreatedUtc { get; set; }
}

/// <summary>System.Text.Json source generation for the envelope, camelCase as the Newtonsoft rows.</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(WidgetEnvelope))]
public sealed partial class WidgetJsonContext : JsonSerializerContext;
