using System.Diagnostics;
using System.Diagnostics.Metrics;

namespace Spanwire.Buffers;

/// <summary>
/// Publishes every bounded pool's counters through System.Diagnostics.Metrics, on the meter named
/// <see cref="MeterName"/>. Instruments are observable: nothing is measured unless a listener asks.
/// </summary>
/// <remarks>
/// Instruments (each tagged <c>spanwire.pool.name</c>): <c>spanwire.buffers.segments.rented</c>,
/// <c>spanwire.buffers.segments.returned</c>, <c>spanwire.buffers.segments.allocated</c> (rents the pool could not
/// serve from retained segments), <c>spanwire.buffers.segments.retained</c> and <c>spanwire.buffers.bytes_in_use</c>
/// (bytes rented and not yet returned); and, from pools that detect misuse, the counter
/// <c>spanwire.buffers.misuse</c>, tagged also <c>spanwire.buffers.misuse.kind</c> (<c>not_disposed</c>,
/// <c>disposed_twice</c>, <c>used_after_dispose</c>), <c>spanwire.buffers.type</c> and, when the stream or writer has
/// one, <c>spanwire.buffers.tag</c>.
/// </remarks>
public static class BufferMetrics
{
    /// <summary>The name of the meter that carries the pool instruments.</summary>
    public const string MeterName = "Spanwire.Buffers";

    private static readonly Lock s_lock = new();
    private static readonly List<WeakReference<BoundedSegmentPool>> s_pools = [];
    private static readonly Meter s_meter = new(MeterName, "1.0");
    private static readonly Counter<long> s_misuse = s_meter.CreateCounter<long>("spanwire.buffers.misuse", "{event}",
        "Pooled streams and writers found never disposed, disposed twice or used after dispose.");

    static BufferMetrics()
    {
        s_meter.CreateObservableCounter("spanwire.buffers.segments.rented", () => Observe(static s => s.Rented), "{segment}",
            "Segments handed out by the pool.");
        s_meter.CreateObservableCounter("spanwire.buffers.segments.returned", () => Observe(static s => s.Returned), "{segment}",
            "Segments given back to the pool.");
        s_meter.CreateObservableCounter("spanwire.buffers.segments.allocated", () => Observe(static s => s.Allocated), "{segment}",
            "Segments the pool had to allocate because none was retained.");
        s_meter.CreateObservableUpDownCounter("spanwire.buffers.segments.retained", () => Observe(static s => s.Retained), "{segment}",
            "Segments kept by the pool for reuse.");
        s_meter.CreateObservableUpDownCounter("spanwire.buffers.bytes_in_use", () => Observe(static s => s.BytesInUse), "By",
            "Bytes in segments rented and not yet returned.");
    }

    internal static void Register(BoundedSegmentPool pool)
    {
        lock (s_lock)
        {
            s_pools.Add(new WeakReference<BoundedSegmentPool>(pool));
        }
    }

    internal static void RecordMisuse(SegmentPool pool, SegmentPoolMisuseEventArgs misuse)
    {
        if (!s_misuse.Enabled)
        {
            return;
        }

        string kind = misuse.Kind switch
        {
            SegmentPoolMisuse.NotDisposed => "not_disposed",
            SegmentPoolMisuse.DisposedTwice => "disposed_twice",
            _ => "used_after_dispose",
        };
        var tags = new TagList
        {
            { "spanwire.pool.name", pool.MetricName },
            { "spanwire.buffers.misuse.kind", kind },
            { "spanwire.buffers.type", misuse.Type },
        };
        if (misuse.Tag is not null)
        {
            tags.Add("spanwire.buffers.tag", misuse.Tag);
        }

        s_misuse.Add(1, tags);
    }

    private static List<Measurement<long>> Observe(Func<SegmentPoolStatistics, long> select)
    {
        var measurements = new List<Measurement<long>>();
        lock (s_lock)
        {
            for (int i = s_pools.Count - 1; i >= 0; i--)
            {
                if (s_pools[i].TryGetTarget(out var pool))
                {
                    measurements.Add(new Measurement<long>(select(pool.GetStatistics()),
                        new KeyValuePair<string, object?>("spanwire.pool.name", pool.Name)));
                }
                else
                {
                    s_pools.RemoveAt(i);
                }
            }
        }

        return measurements;
    }
}
