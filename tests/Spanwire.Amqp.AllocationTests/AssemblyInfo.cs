// Every test here needs RabbitMQ: filter them out with --filter Category!=Broker.
[assembly: AssemblyTrait("Category", Spanwire.BrokerTests.Trait)]
