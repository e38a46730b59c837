using Spanwire.Buffers;

namespace Spanwire.Tests.Buffers;

/// <summary>
/// PooledStream must behave as MemoryStream for every member: seeded random operation sequences run on both, and
/// every return value, exception type, Position and Length must agree, and the bytes at the end.
/// </summary>
public sealed class PooledStreamDifferentialTests
{
    private const int Sequences = 100_000;

    // Small segments put segment boundaries everywhere; 65,536 is the production size.
    private static readonly SegmentPool[] s_pools =
    [
        SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 16, Name = "diff-16" }),
        SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 37, Name = "diff-37" }),
        SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 256, Name = "diff-256" }),
        SegmentPool.Shared,
    ];

    [Fact]
    public void Random_operation_sequences_match_MemoryStream()
    {
        for (int seed = 0; seed < Sequences; seed++)
        {
            try
            {
                RunSequence(seed);
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                throw new InvalidOperationException($"Sequence with seed {seed} diverged: {ex.Message}", ex);
            }
        }
    }

    private static void RunSequence(int seed)
    {
        var random = new Random(seed);
        var pool = s_pools[random.Next(s_pools.Length)];
        // A capacity hint now and then: the stream must behave the same with segments rented ahead.
        int capacity = random.Next(4) == 0 ? Size(random) : -1;
        using var expected = capacity < 0 ? new MemoryStream() : new MemoryStream(capacity);
        using var actual = capacity < 0 ? new PooledStream(pool) : new PooledStream(capacity, pool);
        int operations = random.Next(1, 40);
        var log = new List<string>();
        for (int op = 0; op < operations; op++)
        {
            string name = Step(random, expected, actual);
            log.Add(name);
            Check(expected.Position == actual.Position, $"Position {actual.Position} != {expected.Position}", log);
            Check(expected.Length == actual.Length, $"Length {actual.Length} != {expected.Length}", log);
        }

        Check(expected.ToArray().AsSpan().SequenceEqual(actual.ToArray()), "content differs", log);
    }

    private static void Check(bool condition, string what, List<string> log)
    {
        if (!condition)
        {
            throw new InvalidOperationException($"{what} after [{string.Join(", ", log)}]");
        }
    }

    private static int Size(Random random) => random.Next(10) switch
    {
        0 => 0,
        < 7 => random.Next(1, 20),
        < 9 => random.Next(20, 300),
        _ => random.Next(300, 1200),
    };

    private static long Offset(Random random, long length) => random.Next(10) switch
    {
        0 => -random.Next(1, 50),
        1 => length + random.Next(1, 100),
        _ => length == 0 ? 0 : random.NextInt64(0, length + 1),
    };

    private static byte[] Bytes(Random random, int count)
    {
        var bytes = new byte[count];
        random.NextBytes(bytes);
        return bytes;
    }

    /// <summary>Runs one random operation on both streams; returns its description for the failure log.</summary>
    private static string Step(Random random, MemoryStream expected, PooledStream actual)
    {
        bool invalid = random.Next(30) == 0;
        switch (random.Next(17))
        {
            case 0:
                {
                    int count = Size(random);
                    byte[]? buffer = Bytes(random, count + random.Next(4));
                    int offset = random.Next(buffer.Length - count + 1);
                    if (invalid)
                    {
                        (buffer, offset, count) = random.Next(3) switch
                        {
                            0 => (null, offset, count),
                            1 => (buffer, -1, count),
                            _ => (buffer, offset, buffer!.Length - offset + 1),
                        };
                    }

                    Same(() => expected.Write(buffer!, offset, count), () => actual.Write(buffer!, offset, count));
                    return $"Write(byte[{buffer?.Length}], {offset}, {count})";
                }

            case 1:
                {
                    byte[] buffer = Bytes(random, Size(random));
                    Same(() => expected.Write(buffer.AsSpan()), () => actual.Write(buffer.AsSpan()));
                    return $"Write(span {buffer.Length})";
                }

            case 2:
                {
                    byte value = (byte)random.Next(256);
                    Same(() => expected.WriteByte(value), () => actual.WriteByte(value));
                    return $"WriteByte({value})";
                }

            case 3:
                {
                    int count = Size(random);
                    int extra = random.Next(4);
                    byte[]? a = new byte[count + extra];
                    byte[]? b = new byte[count + extra];
                    int offset = random.Next(extra + 1);
                    if (invalid)
                    {
                        (a, b, offset, count) = random.Next(3) switch
                        {
                            0 => (null, null, offset, count),
                            1 => (a, b, -1, count),
                            _ => (a, b, offset, a!.Length - offset + 1),
                        };
                    }

                    Same(() => expected.Read(a!, offset, count), () => actual.Read(b!, offset, count));
                    SameBytes(a, b);
                    return $"Read(byte[{a?.Length}], {offset}, {count})";
                }

            case 4:
                {
                    int count = Size(random);
                    byte[] a = new byte[count], b = new byte[count];
                    Same(() => expected.Read(a.AsSpan()), () => actual.Read(b.AsSpan()));
                    SameBytes(a, b);
                    return $"Read(span {count})";
                }

            case 5:
                Same(expected.ReadByte, actual.ReadByte);
                return "ReadByte()";

            case 6:
                {
                    var origin = (SeekOrigin)(invalid ? 3 + random.Next(2) : random.Next(3));
                    long reference = origin switch
                    {
                        SeekOrigin.Begin => 0,
                        SeekOrigin.Current => expected.Position,
                        _ => expected.Length,
                    };
                    long offset = Offset(random, expected.Length) - reference;
                    Same(() => expected.Seek(offset, origin), () => actual.Seek(offset, origin));
                    return $"Seek({offset}, {origin})";
                }

            case 7:
                {
                    long position = Offset(random, expected.Length);
                    Same(() => expected.Position = position, () => actual.Position = position);
                    return $"Position = {position}";
                }

            case 8:
                {
                    long length = random.Next(4) == 0 ? Offset(random, expected.Length) : Math.Max(0, expected.Length - random.Next(100));
                    Same(() => expected.SetLength(length), () => actual.SetLength(length));
                    return $"SetLength({length})";
                }

            case 9:
                {
                    // IBufferWriter at Position is Write to MemoryStream.
                    int hint = Size(random);
                    byte[] data = Bytes(random, hint);
                    int count = random.Next(hint + 1);
                    Span<byte> span = actual.GetSpan(hint);
                    Check(span.Length >= Math.Max(hint, 1), $"GetSpan({hint}) gave {span.Length} bytes", []);
                    data.AsSpan(0, count).CopyTo(span);
                    actual.Advance(count);
                    expected.Write(data, 0, count);
                    return $"GetSpan({hint}) + Advance({count})";
                }

            case 10:
                {
                    using var a = new MemoryStream();
                    using var b = new MemoryStream();
                    int bufferSize = invalid ? 0 : random.Next(1, 100);
                    Same(() => expected.CopyTo(a, bufferSize), () => actual.CopyTo(b, bufferSize));
                    SameBytes(a.ToArray(), b.ToArray());
                    return $"CopyTo(bufferSize {bufferSize})";
                }

            case 11:
                {
                    byte[] buffer = Bytes(random, Size(random));
                    Same(() => expected.WriteAsync(buffer).AsTask().Wait(), () => actual.WriteAsync(buffer).AsTask().Wait());
                    return $"WriteAsync({buffer.Length})";
                }

            case 12:
                {
                    int count = Size(random);
                    byte[] a = new byte[count], b = new byte[count];
                    Same(() => expected.ReadAsync(a, 0, count).Result, () => actual.ReadAsync(b, 0, count).Result);
                    SameBytes(a, b);
                    return $"ReadAsync({count})";
                }

            case 13:
                {
                    using var a = new MemoryStream();
                    using var b = new MemoryStream();
                    Same(() => expected.WriteTo(a), () => actual.WriteTo(b));
                    SameBytes(a.ToArray(), b.ToArray());
                    return "WriteTo";
                }

            case 14:
                Same(expected.Flush, actual.Flush);
                SameBytes(expected.ToArray(), actual.ToArray());
                return "Flush + ToArray";

            case 15:
                {
                    // Below the length is refused by both; above it rents ahead (PooledStream) or reallocates.
                    int capacity = (int)Math.Max(0, expected.Length + random.Next(-20, 600));
                    Same(() => expected.Capacity = capacity, () => actual.Capacity = capacity);
                    return $"Capacity = {capacity}";
                }

            default:
                {
                    using var a = new MemoryStream();
                    using var b = new MemoryStream();
                    Same(() => expected.CopyToAsync(a).Wait(), () => actual.CopyToAsync(b).Wait());
                    SameBytes(a.ToArray(), b.ToArray());
                    return "CopyToAsync";
                }
        }
    }

    private static void Same(Action expected, Action actual) =>
        Same(() => { expected(); return 0L; }, () => { actual(); return 0L; });

    private static void Same<T>(Func<T> expected, Func<T> actual)
    {
        (T? value, Type? error) Run(Func<T> f)
        {
            try
            {
                return (f(), null);
            }
            catch (AggregateException ex) when (ex.InnerException is not null)
            {
                return (default, ex.InnerException.GetType());
            }
            catch (Exception ex)
            {
                return (default, ex.GetType());
            }
        }

        var e = Run(expected);
        var a = Run(actual);
        if (e.error != a.error || !EqualityComparer<T>.Default.Equals(e.value, a.value))
        {
            throw new InvalidOperationException(
                $"MemoryStream gave {e.error?.Name ?? e.value?.ToString()}, PooledStream gave {a.error?.Name ?? a.value?.ToString()}");
        }
    }

    private static void SameBytes(byte[]? expected, byte[]? actual)
    {
        if (!(expected ?? []).AsSpan().SequenceEqual(actual ?? []))
        {
            throw new InvalidOperationException("bytes read differ");
        }
    }
}
