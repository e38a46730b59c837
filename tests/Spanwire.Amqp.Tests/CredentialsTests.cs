using Spanwire.Amqp.Client;

namespace Spanwire.Amqp.Tests;

/// <summary>Which credentials each login uses: the provider's, asked every time, or the secret kept by UpdateSecretAsync.</summary>
public class CredentialsTests
{
    [Fact]
    public async Task The_provider_is_asked_before_every_login_one_that_throws_fails_that_attempt_only()
    {
        await using var broker = new AutoBroker();
        var provider = new CountingProvider(failOnCall: 2);
        AmqpConnectionOptions options = broker.Options();
        options.CredentialsProvider = provider;
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(options);
        var failed = new List<string>();
        connection.RecoveryFailed += (_, e) => failed.Add(e.Error!.Message);

        broker.Current.Drop();
        await AutoBroker.WaitUntilAsync(() => connection.IsOpen && broker.Connections == 2, "recovered");

        Expect.Equal("user:token-1,user:token-3", string.Join(",", broker.Logins), "the logins: connect, then the attempt after the failed one");
        Expect.Equal("the token service is down", string.Join(",", failed), "the failed attempt's reason");
    }

    [Fact]
    public async Task UpdateSecretAsync_once_accepted_is_the_password_of_every_later_login()
    {
        await using var broker = new AutoBroker();
        AmqpConnectionOptions options = broker.Options();
        options.UserName = "app";
        options.Password = "expiring";
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(options);

        await connection.UpdateSecretAsync("refreshed", "token refresh");
        broker.Current.Drop();
        await AutoBroker.WaitUntilAsync(() => connection.IsOpen && broker.Connections == 2, "recovered");

        Expect.Equal("app:expiring,app:refreshed", string.Join(",", broker.Logins), "the logins before and after the update");
    }

    [Fact]
    public void Credentials_never_show_the_password_when_printed()
    {
        Expect.Equal("AmqpCredentials { UserName = app, Password = *** }", new AmqpCredentials("app", "s3cret").ToString(), "ToString");
    }

    private sealed class CountingProvider(int failOnCall) : IAmqpCredentialsProvider
    {
        private int _calls;

        public ValueTask<AmqpCredentials> GetCredentialsAsync(CancellationToken cancellationToken)
        {
            int call = Interlocked.Increment(ref _calls);
            return call == failOnCall
                ? ValueTask.FromException<AmqpCredentials>(new InvalidOperationException("the token service is down"))
                : ValueTask.FromResult(new AmqpCredentials("user", $"token-{call}"));
        }
    }
}
