using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text.Encodings.Web;
using System.Text.Json;
using Spanwire.Buffers;

namespace Spanwire.Json;

/// <summary>
/// Writes UTF-8 JSON with the members and meanings of <see cref="Utf8JsonWriter"/>, and for the same calls and
/// <see cref="JsonWriterOptions"/> exactly the same bytes and the same exceptions, into an
/// <see cref="IBufferWriter{T}"/> or a <see cref="Stream"/>.
/// </summary>
/// <remarks>
/// <para>
/// Options are System.Text.Json's own <see cref="JsonWriterOptions"/>: Indented, IndentCharacter, IndentSize,
/// NewLine, SkipValidation, MaxDepth, and Encoder (null for the default escaping,
/// <c>JavaScriptEncoder.UnsafeRelaxedJsonEscaping</c> for the relaxed one, or any other encoder).
/// </para>
/// <para>
/// Bytes are written into the memory the output hands out and committed on <see cref="Flush"/> or when more room is
/// needed (<see cref="BytesPending"/>, <see cref="BytesCommitted"/>). With a stream, the JSON is held in pooled
/// segments until <see cref="Flush"/> writes it out. Not thread-safe.
/// </para>
/// </remarks>
/// <example>
/// <code>
/// using var buffer = new PooledBufferWriter();
/// using (var json = new SpanwireJsonWriter(buffer, new JsonWriterOptions { Indented = true }))
/// {
///     json.WriteStartObject();
///     json.WriteString("name", "Ada");
///     json.WriteNumber("born", 1815);
///     json.WriteEndObject();
/// }
/// </code>
/// </example>
public sealed partial class SpanwireJsonWriter : IDisposable, IAsyncDisposable
{
    private const int InitialGrowthSize = 256;
    private const int DefaultGrowthSize = 4096;

    /// <summary>Utf8JsonWriter's limit on one unescaped token, in bytes or chars.</summary>
    private const int MaxTokenSize = 166_666_666;

    // Output: the window of memory being written (see BufferWindow). The fields are kept few: the benchmarks this writer
    // is measured by make one writer per document.
    private IBufferWriter<byte>? _output;
    private StreamOutput? _streamOutput; // set when writing to a stream
    private BufferWindow _w = new();
    private SideState? _side; // made on first need: a string written in segments

    // Options, unpacked for the hot paths.
    private JavaScriptEncoder? _encoder;
    private JsonEscaping _escaping = JsonEscaping.Default;
    private bool _indented;
    private bool _validate;
    private byte _indentByte;
    private int _indentSize;
    private bool _crlf;
    private int _maxDepth;

    // Structure.
    private int _depth;
    private bool _needsComma;
    private JsonTokenType _tokenType;
    private bool _commentAfterNoneOrPropertyName;
    private Container _container;
    private ContainerStack _stack;


    /// <summary>A stream and the pooled segments holding the JSON until it is flushed to it.</summary>
    private sealed class StreamOutput(Stream stream)
    {
        public Stream Stream { get; set; } = stream;

        public PooledBufferWriter Buffer { get; } = new();
    }

    /// <summary>
    /// State only some writers need, kept out of the writer object so that a writer is no larger than Utf8JsonWriter.
    /// </summary>
    private sealed class SideState
    {
        /// <summary>Which kind of segmented string is open.</summary>
        public StringSegment Segment;

        /// <summary>The bytes of a character (or Base64 group) not yet whole, carried to the next segment.</summary>
        public SegmentCarry Carry;

        public byte CarryLength;
    }

    private enum Container : byte
    {
        None,
        Object,
        Array,
    }

    /// <summary>A writer into <paramref name="bufferWriter"/>.</summary>
    /// <param name="bufferWriter">Where the JSON goes.</param>
    /// <param name="options">The options (indentation, encoder, validation, depth), as Utf8JsonWriter takes them.</param>
    /// <exception cref="ArgumentNullException"><paramref name="bufferWriter"/> is null.</exception>
    public SpanwireJsonWriter(IBufferWriter<byte> bufferWriter, JsonWriterOptions options = default)
    {
        ArgumentNullException.ThrowIfNull(bufferWriter);
        _output = bufferWriter;
        SetOptions(options);
    }

    /// <summary>A writer into <paramref name="utf8Json"/>; the JSON reaches the stream on <see cref="Flush"/>.</summary>
    /// <param name="utf8Json">The stream the JSON is written to (it must be writable).</param>
    /// <param name="options">The options (indentation, encoder, validation, depth), as Utf8JsonWriter takes them.</param>
    /// <exception cref="ArgumentNullException"><paramref name="utf8Json"/> is null.</exception>
    /// <exception cref="ArgumentException">The stream is not writable.</exception>
    public SpanwireJsonWriter(Stream utf8Json, JsonWriterOptions options = default)
    {
        ArgumentNullException.ThrowIfNull(utf8Json);
        if (!utf8Json.CanWrite)
        {
            JsonThrow.Argument("Stream is not writable.");
        }

        _streamOutput = new StreamOutput(utf8Json);
        _output = _streamOutput.Buffer;
        SetOptions(options);
    }

    /// <summary>Bytes written but not yet committed to the output (for a stream: not yet written to it).</summary>
    public int BytesPending => _w.Pos - _w.Start + (int)(_streamOutput?.Buffer.WrittenCount ?? 0);

    /// <summary>Bytes committed to the output (for a stream: written to it).</summary>
    public long BytesCommitted { get; private set; }

    /// <summary>The depth of the current token.</summary>
    public int CurrentDepth => _depth;

    /// <summary>The options this writer was made with (MaxDepth 0 reads as the default 1000).</summary>
    public JsonWriterOptions Options => new()
    {
        Encoder = _encoder,
        Indented = _indented,
        IndentCharacter = (char)_indentByte,
        IndentSize = _indentSize,
        MaxDepth = _maxDepth,
        NewLine = _crlf ? "\r\n" : "\n",
        SkipValidation = !_validate,
    };

    private void SetOptions(JsonWriterOptions options)
    {
        if (options.MaxDepth == 0)
        {
            options.MaxDepth = 1000;
        }

        _encoder = options.Encoder;
        _escaping = JsonEscaping.For(options.Encoder);
        _indented = options.Indented;
        _validate = !options.SkipValidation;
        _indentByte = (byte)options.IndentCharacter;
        _indentSize = options.IndentSize;
        _crlf = options.NewLine.Length == 2;
        _maxDepth = options.MaxDepth;
    }

    /// <summary>Commits what was written: advances the buffer writer, or writes to the stream and flushes it.</summary>
    public void Flush()
    {
        CheckNotDisposed();
        Commit();
        if (_streamOutput is { } target)
        {
            long written = target.Buffer.WrittenCount;
            if (written != 0)
            {
                target.Buffer.CopyTo(target.Stream);
                BytesCommitted += written;
                target.Buffer.Reset();
            }

            target.Stream.Flush();
        }
    }

    /// <summary>As <see cref="Flush"/>, writing to the stream asynchronously.</summary>
    /// <param name="cancellationToken">Cancels writing to the stream.</param>
    /// <returns>A task that completes when the pending bytes are written.</returns>
    public async Task FlushAsync(CancellationToken cancellationToken = default)
    {
        CheckNotDisposed();
        Commit();
        if (_streamOutput is { } target)
        {
            long written = target.Buffer.WrittenCount;
            if (written != 0)
            {
                await target.Buffer.CopyToAsync(target.Stream, cancellationToken).ConfigureAwait(false);
                BytesCommitted += written;
                target.Buffer.Reset();
            }

            await target.Stream.FlushAsync(cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>Starts over on the same output and options; bytes not yet flushed are dropped.</summary>
    public void Reset()
    {
        CheckNotDisposed();
        _streamOutput?.Buffer.Reset();
        ResetState();
    }

    /// <summary>Starts over writing to <paramref name="bufferWriter"/>, with the same options.</summary>
    /// <param name="bufferWriter">The output the writer writes to from now on.</param>
    public void Reset(IBufferWriter<byte> bufferWriter)
    {
        CheckNotDisposed();
        ArgumentNullException.ThrowIfNull(bufferWriter);
        _output = bufferWriter;
        _streamOutput?.Buffer.Dispose();
        _streamOutput = null;
        ResetState();
    }

    /// <summary>Starts over writing to <paramref name="utf8Json"/>, with the same options.</summary>
    /// <param name="utf8Json">The stream the writer writes to from now on.</param>
    public void Reset(Stream utf8Json)
    {
        CheckNotDisposed();
        ArgumentNullException.ThrowIfNull(utf8Json);
        if (!utf8Json.CanWrite)
        {
            JsonThrow.Argument("Stream is not writable.");
        }

        if (_streamOutput is null)
        {
            _streamOutput = new StreamOutput(utf8Json);
        }
        else
        {
            _streamOutput.Stream = utf8Json;
            _streamOutput.Buffer.Reset();
        }

        _output = _streamOutput.Buffer;
        ResetState();
    }

    /// <summary>
    /// Starts over writing to <paramref name="bufferWriter"/> with other options: the overload System.Text.Json 11 adds
    /// to Utf8JsonWriter, so one writer can serve outputs that want different formatting.
    /// </summary>
    /// <param name="bufferWriter">The output the writer writes to from now on.</param>
    /// <param name="options">The options from now on (MaxDepth 0 means the default 1000).</param>
    /// <exception cref="ArgumentNullException"><paramref name="bufferWriter"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The writer is disposed.</exception>
    public void Reset(IBufferWriter<byte> bufferWriter, JsonWriterOptions options)
    {
        Reset(bufferWriter);
        SetOptions(options);
    }

    /// <summary>
    /// Starts over writing to <paramref name="utf8Json"/> with other options: the overload System.Text.Json 11 adds to
    /// Utf8JsonWriter.
    /// </summary>
    /// <param name="utf8Json">The stream the writer writes to from now on (it must be writable).</param>
    /// <param name="options">The options from now on (MaxDepth 0 means the default 1000).</param>
    /// <exception cref="ArgumentNullException"><paramref name="utf8Json"/> is null.</exception>
    /// <exception cref="ArgumentException">The stream is not writable.</exception>
    /// <exception cref="ObjectDisposedException">The writer is disposed.</exception>
    public void Reset(Stream utf8Json, JsonWriterOptions options)
    {
        Reset(utf8Json);
        SetOptions(options);
    }

    /// <summary>Flushes, then lets go of the output. Calling it again does nothing.</summary>
    public void Dispose()
    {
        if (_output is null)
        {
            return;
        }

        Flush();
        Release();
    }

    /// <summary>Flushes asynchronously, then lets go of the output.</summary>
    /// <returns>A task that completes when the pending bytes are written.</returns>
    public async ValueTask DisposeAsync()
    {
        if (_output is null)
        {
            return;
        }

        await FlushAsync().ConfigureAwait(false);
        Release();
    }

    private void Release()
    {
        ResetState();
        _streamOutput?.Buffer.Dispose();
        _streamOutput = null;
        _output = null;
    }

    private void ResetState()
    {
        _w.Release();
        BytesCommitted = 0;
        _depth = 0;
        _needsComma = false;
        _tokenType = JsonTokenType.None;
        _commentAfterNoneOrPropertyName = false;
        _container = Container.None;
        _stack.Clear();
        if (_side is { } side)
        {
            side.Segment = StringSegment.None;
            side.CarryLength = 0;
        }
    }

    private void CheckNotDisposed()
    {
        if (_output is null)
        {
            JsonThrow.Disposed();
        }
    }

    /// <summary>Hands the pending bytes to the output and forgets the current memory.</summary>
    private void Commit()
    {
        int pending = _w.Commit(_output!);
        if (_streamOutput is null)
        {
            BytesCommitted += pending;
        }
    }

    /// <summary>Makes room for <paramref name="required"/> bytes at the window's position.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Grow(int required)
    {
        CheckNotDisposed();
        int sizeHint = Math.Max(_w.IsHeld ? DefaultGrowthSize : InitialGrowthSize, required);
        Commit();
        Memory<byte> memory = _output!.GetMemory(sizeHint);
        if (memory.Length < sizeHint)
        {
            JsonThrow.InvalidOperation("The IBufferWriter could not provide an output buffer that is large enough to continue writing.");
        }

        // Staged memory is exactly the output's, so a commit is one copy and one Advance, as Utf8JsonWriter's.
        _w.Take(memory, stagingMinimum: 0, limitToMemory: true);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Reserve(int required)
    {
        if (_w.End - _w.Pos < required)
        {
            Grow(required);
        }
    }

    private int Indentation => _depth * _indentSize;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int WriteNewLine(byte[] buffer, int p)
    {
        if (_crlf)
        {
            buffer[p++] = (byte)'\r';
        }

        buffer[p++] = (byte)'\n';
        return p;
    }

    private int WriteIndentation(byte[] buffer, int p, int indent)
    {
        buffer.AsSpan(p, indent).Fill(_indentByte);
        return p + indent;
    }
}
