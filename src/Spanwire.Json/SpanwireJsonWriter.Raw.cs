using System.Buffers;
using System.Text;
using System.Text.Json;
using System.Text.Unicode;

namespace Spanwire.Json;

// Comments (/*...*/, never escaped) and raw JSON values (written as given, validated by Utf8JsonReader unless
// told not to). Neither is indented; comments take no list separator.
public sealed partial class SpanwireJsonWriter
{
    /// <summary>The longest UTF-16 raw value Utf8JsonWriter accepts (so that transcoding cannot overflow).</summary>
    private const int MaxUtf16RawValueLength = int.MaxValue / 3;

    /// <summary>Writes a comment /*value*/.</summary>
    /// <exception cref="ArgumentException">The value contains "*/", is invalid UTF-16, or is too large.</exception>
    /// <param name="value">The comment text (without <c>/*</c> and <c>*/</c>).</param>
    public void WriteCommentValue(string value)
    {
        ArgumentNullException.ThrowIfNull(value);
        WriteCommentValue(value.AsSpan());
    }

    /// <summary>Writes a comment /*value*/.</summary>
    /// <param name="value">The comment text (without <c>/*</c> and <c>*/</c>).</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteCommentValue(ReadOnlySpan<char> value)
    {
        CheckTokenSize(value.Length);
        if (value.Contains("*/", StringComparison.Ordinal))
        {
            JsonThrow.Argument("Cannot write a comment value which contains the end of comment delimiter.");
        }

        if (_validate && InSegmentedString)
        {
            ThrowWithinString(); // as Utf8JsonWriter, for UTF-16 comments only
        }

        int p = BeginComment(value.Length * 3);
        byte[] buffer = _w.Buffer;
        p += Transcode(value, buffer.AsSpan(p));
        EndComment(buffer, p);
    }

    /// <summary>Writes a UTF-8 comment /*value*/.</summary>
    /// <param name="utf8Value">The comment text as UTF-8 (without <c>/*</c> and <c>*/</c>).</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteCommentValue(ReadOnlySpan<byte> utf8Value)
    {
        CheckTokenSize(utf8Value.Length);
        if (utf8Value.IndexOf("*/"u8) >= 0)
        {
            JsonThrow.Argument("Cannot write a comment value which contains the end of comment delimiter.");
        }

        if (!Utf8.IsValid(utf8Value))
        {
            JsonThrow.Argument("Cannot write invalid UTF-8 text as a JSON comment.");
        }

        int p = BeginComment(utf8Value.Length);
        byte[] buffer = _w.Buffer;
        utf8Value.CopyTo(buffer.AsSpan(p));
        EndComment(buffer, p + utf8Value.Length);
    }

    private int BeginComment(int maxLength)
    {
        int indent = _indented ? Indentation : 0;
        Reserve(_indented ? indent + maxLength + 4 + NewLineLength : maxLength + 4);
        byte[] buffer = _w.Buffer;
        int p = _w.Pos;
        if (_indented && (_tokenType != JsonTokenType.None || _commentAfterNoneOrPropertyName))
        {
            p = WriteNewLine(buffer, p);
            p = WriteIndentation(buffer, p, indent);
        }

        buffer[p++] = (byte)'/';
        buffer[p++] = (byte)'*';
        return p;
    }

    private void EndComment(byte[] buffer, int p)
    {
        buffer[p++] = (byte)'*';
        buffer[p++] = (byte)'/';
        _w.Pos = p;
        if (_tokenType is JsonTokenType.PropertyName or JsonTokenType.None)
        {
            _commentAfterNoneOrPropertyName = true;
        }
    }

    /// <summary>Writes raw JSON as it is; unless <paramref name="skipInputValidation"/>, it must be one valid JSON value.</summary>
    /// <param name="json">The JSON text to write as it is.</param>
    /// <param name="skipInputValidation">Whether to write the text without checking that it is one complete JSON value.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteRawValue(string json, bool skipInputValidation = false)
    {
        ArgumentNullException.ThrowIfNull(json);
        WriteRawValue(json.AsSpan(), skipInputValidation);
    }

    /// <summary>Writes raw JSON as it is (transcoded to UTF-8).</summary>
    /// <param name="json">The JSON text to write as it is.</param>
    /// <param name="skipInputValidation">Whether to write the text without checking that it is one complete JSON value.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteRawValue(ReadOnlySpan<char> json, bool skipInputValidation = false)
    {
        if (_validate)
        {
            ValidateWritingValue();
        }

        if (json.Length > MaxUtf16RawValueLength)
        {
            JsonThrow.TooLarge(json.Length);
        }

        byte[] rented = ArrayPool<byte>.Shared.Rent(json.Length * 3);
        try
        {
            int n = Transcode(json, rented);
            WriteRawValueCore(rented.AsSpan(0, n), skipInputValidation);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }

    /// <summary>Writes raw UTF-8 JSON as it is.</summary>
    /// <param name="utf8Json">The JSON text, as UTF-8, to write as it is.</param>
    /// <param name="skipInputValidation">Whether to write the text without checking that it is one complete JSON value.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteRawValue(ReadOnlySpan<byte> utf8Json, bool skipInputValidation = false)
    {
        if (_validate)
        {
            ValidateWritingValue();
        }

        if (utf8Json.Length == int.MaxValue)
        {
            JsonThrow.TooLarge(int.MaxValue);
        }

        WriteRawValueCore(utf8Json, skipInputValidation);
    }

    /// <summary>Writes raw UTF-8 JSON held in a sequence as it is.</summary>
    /// <param name="utf8Json">The JSON text, as UTF-8, to write as it is.</param>
    /// <param name="skipInputValidation">Whether to write the text without checking that it is one complete JSON value.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteRawValue(ReadOnlySequence<byte> utf8Json, bool skipInputValidation = false)
    {
        if (_validate)
        {
            ValidateWritingValue();
        }

        if (utf8Json.Length >= int.MaxValue)
        {
            JsonThrow.TooLarge(int.MaxValue);
        }

        if (utf8Json.IsSingleSegment)
        {
            WriteRawValueCore(utf8Json.FirstSpan, skipInputValidation);
            return;
        }

        byte[] rented = ArrayPool<byte>.Shared.Rent((int)utf8Json.Length);
        try
        {
            utf8Json.CopyTo(rented);
            WriteRawValueCore(rented.AsSpan(0, (int)utf8Json.Length), skipInputValidation);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }

    private void WriteRawValueCore(ReadOnlySpan<byte> utf8Json, bool skipInputValidation)
    {
        if (utf8Json.IsEmpty)
        {
            JsonThrow.Argument("Expected at least one JSON token but none were found.");
        }

        // Unvalidated raw values count as a string: a complete value for the validation that follows.
        JsonTokenType tokenType = skipInputValidation ? JsonTokenType.String : LastToken(utf8Json);
        Reserve(utf8Json.Length + 1);
        byte[] buffer = _w.Buffer;
        int p = _w.Pos;
        if (_needsComma)
        {
            buffer[p++] = (byte)',';
        }

        utf8Json.CopyTo(buffer.AsSpan(p));
        _w.Pos = p + utf8Json.Length;
        _needsComma = true;
        _tokenType = tokenType;
    }

    /// <summary>Reads the whole value with Utf8JsonReader, which throws on anything invalid; returns its last token.</summary>
    private static JsonTokenType LastToken(ReadOnlySpan<byte> utf8Json)
    {
        var reader = new Utf8JsonReader(utf8Json);
        while (reader.Read())
        {
        }

        return reader.TokenType;
    }
}
