using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// No-wait declares on the broker, the same scenario through RabbitMQ.Client as the control: declared topology
/// routes at once, and a no-wait declare the broker refuses closes the channel, which the next call reports.
/// </summary>
public class NoWaitDeclareTests
{
    [BrokerFact]
    public async Task NoWait_exchange_queue_and_binding_route_at_once_a_refused_one_closes_the_channel_as_with_RabbitMQ_Client()
    {
        string spanwire = await RunSpanwireAsync(Broker.Name("nowait"));
        string control = await RunRabbitMqClientAsync(Broker.Name("nowait"));
        Expect.Equal(control, spanwire, "got, then the refused declare's reply code; RabbitMQ.Client's is expected");
    }

    private static async Task<string> RunSpanwireAsync(string name)
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        await channel.ExchangeDeclareAsync(name, "topic", autoDelete: true, noWait: true, cancellationToken: TestTimeout.Token);
        await channel.QueueDeclareAsync(name, autoDelete: true, noWait: true, cancellationToken: TestTimeout.Token);
        await channel.QueueBindAsync(name, name, "orders.#", noWait: true, cancellationToken: TestTimeout.Token);
        await channel.PublishAsync(name, "orders.eu", "routed"u8.ToArray(), TestTimeout.Token);
        AmqpDelivery? got = null;
        for (int i = 0; i < 50 && got is null; i++)
        {
            got = await channel.GetAsync(name, autoAck: true, TestTimeout.Token);
        }

        string body = got is null ? "nothing" : System.Text.Encoding.UTF8.GetString(got.Body.Span);
        FieldTable other = FieldTable.FromDictionary(new Dictionary<string, object?> { ["x-max-length"] = 5 });
        await channel.QueueDeclareAsync(name, autoDelete: true, arguments: other, noWait: true, cancellationToken: TestTimeout.Token);
        try
        {
            for (int i = 0; i < 50; i++)
            {
                await channel.QueueDeclareAsync(name, passive: true, cancellationToken: TestTimeout.Token);
                await Task.Delay(20);
            }

            return $"{body}, not refused";
        }
        catch (AmqpChannelClosedException ex)
        {
            return $"{body}, {ex.ReplyCode}";
        }
    }

    private static async Task<string> RunRabbitMqClientAsync(string name)
    {
        var factory = new ConnectionFactory { Uri = new Uri(Broker.Uri) };
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        await using IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        await channel.ExchangeDeclareAsync(name, "topic", durable: false, autoDelete: true, arguments: null, passive: false, noWait: true, TestTimeout.Token);
        await channel.QueueDeclareAsync(name, durable: false, exclusive: false, autoDelete: true, arguments: null, passive: false, noWait: true, TestTimeout.Token);
        await channel.QueueBindAsync(name, name, "orders.#", arguments: null, noWait: true, TestTimeout.Token);
        await channel.BasicPublishAsync(name, "orders.eu", "routed"u8.ToArray(), TestTimeout.Token);
        BasicGetResult? got = null;
        for (int i = 0; i < 50 && got is null; i++)
        {
            got = await channel.BasicGetAsync(name, autoAck: true, TestTimeout.Token);
        }

        string body = got is null ? "nothing" : System.Text.Encoding.UTF8.GetString(got.Body.Span);
        await channel.QueueDeclareAsync(name, durable: false, exclusive: false, autoDelete: true,
            arguments: new Dictionary<string, object?> { ["x-max-length"] = 5 }, passive: false, noWait: true, TestTimeout.Token);
        try
        {
            for (int i = 0; i < 50; i++)
            {
                await channel.QueueDeclarePassiveAsync(name, TestTimeout.Token);
                await Task.Delay(20);
            }

            return $"{body}, not refused";
        }
        catch (OperationInterruptedException ex) // AlreadyClosedException included
        {
            return $"{body}, {ex.ShutdownReason?.ReplyCode}";
        }
    }
}
