using System.Text.Json;
using Spanwire.Json;

namespace Spanwire.Benchmarks.Signing;

/// <summary>The widget envelope written by hand, with pre-encoded camelCase names: the same calls on both writers.</summary>
public static class WidgetWriting
{
    private static readonly JsonEncodedText s_widgets = JsonEncodedText.Encode("widgets");
    private static readonly JsonEncodedText s_id = JsonEncodedText.Encode("id");
    private static readonly JsonEncodedText s_createdUtc = JsonEncodedText.Encode("createdUtc");
    private static readonly JsonEncodedText[] s_properties = Enumerable.Range(0, 10).Select(i => JsonEncodedText.Encode($"property{i}")).ToArray();

    public static void Write(Utf8JsonWriter json, WidgetEnvelope envelope)
    {
        json.WriteStartObject();
        json.WriteStartArray(s_widgets);
        foreach (Widget w in envelope.Widgets)
        {
            json.WriteStartObject();
            json.WriteString(s_id, w.Id);
            json.WriteString(s_properties[0], w.Property0);
            json.WriteString(s_properties[1], w.Property1);
            json.WriteString(s_properties[2], w.Property2);
            json.WriteString(s_properties[3], w.Property3);
            json.WriteString(s_properties[4], w.Property4);
            json.WriteString(s_properties[5], w.Property5);
            json.WriteString(s_properties[6], w.Property6);
            json.WriteString(s_properties[7], w.Property7);
            json.WriteString(s_properties[8], w.Property8);
            json.WriteString(s_properties[9], w.Property9);
            json.WriteString(s_createdUtc, w.CreatedUtc);
            json.WriteEndObject();
        }

        json.WriteEndArray();
        json.WriteEndObject();
        json.Flush();
    }

    public static void Write(SpanwireJsonWriter json, WidgetEnvelope envelope)
    {
        json.WriteStartObject();
        json.WriteStartArray(s_widgets);
        foreach (Widget w in envelope.Widgets)
        {
            json.WriteStartObject();
            json.WriteString(s_id, w.Id);
            json.WriteString(s_properties[0], w.Property0);
            json.WriteString(s_properties[1], w.Property1);
            json.WriteString(s_properties[2], w.Property2);
            json.WriteString(s_properties[3], w.Property3);
            json.WriteString(s_properties[4], w.Property4);
            json.WriteString(s_properties[5], w.Property5);
            json.WriteString(s_properties[6], w.Property6);
            json.WriteString(s_properties[7], w.Property7);
            json.WriteString(s_properties[8], w.Property8);
            json.WriteString(s_properties[9], w.Property9);
            json.WriteString(s_createdUtc, w.CreatedUtc);
            json.WriteEndObject();
        }

        json.WriteEndArray();
        json.WriteEndObject();
        json.Flush();
    }
}
