package io.paysession.gateway.support;

import io.axoniq.axonserver.grpc.control.ClientIdentification;
import io.axoniq.axonserver.grpc.control.NodeInfo;
import io.axoniq.axonserver.grpc.control.PlatformInboundInstruction;
import io.axoniq.axonserver.grpc.control.PlatformInfo;
import io.axoniq.axonserver.grpc.control.PlatformOutboundInstruction;
import io.axoniq.axonserver.grpc.control.PlatformServiceGrpc;
import io.axoniq.axonserver.grpc.event.Confirmation;
import io.axoniq.axonserver.grpc.event.Event;
import io.axoniq.axonserver.grpc.event.EventStoreGrpc;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.stub.StreamObserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A gRPC endpoint that answers as much of Axon Server's protocol as a client needs to connect and append events: the
 * platform service (which server to use: this one) with an instruction stream kept open, and the event store's
 * append. It records who connected and what was appended. Everything else is left unimplemented (a client asking
 * for it gets UNIMPLEMENTED): this is not Axon Server, only a witness that a client talks to it.
 */
public final class FakeAxonServer implements AutoCloseable {

    private final List<ClientIdentification> clients = new CopyOnWriteArrayList<>();
    private final List<Event> appended = new CopyOnWriteArrayList<>();
    private final Server server;

    public FakeAxonServer() {
        try {
            server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                    .addService(new Platform())
                    .addService(new Events())
                    .build()
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return server.getPort();
    }

    /** The clients that asked which server to use, in order. */
    public List<ClientIdentification> clients() {
        return List.copyOf(clients);
    }

    /** The events appended, in order. */
    public List<Event> appended() {
        return List.copyOf(appended);
    }

    @Override
    public void close() {
        server.shutdownNow();
    }

    private final class Platform extends PlatformServiceGrpc.PlatformServiceImplBase {

        @Override
        public void getPlatformServer(ClientIdentification request, StreamObserver<PlatformInfo> answer) {
            clients.add(request);
            answer.onNext(PlatformInfo.newBuilder()
                    .setPrimary(NodeInfo.newBuilder().setHostName("localhost").setGrpcPort(port()).setNodeName("fake"))
                    .setSameConnection(true)
                    .build());
            answer.onCompleted();
        }

        @Override
        public StreamObserver<PlatformInboundInstruction> openStream(StreamObserver<PlatformOutboundInstruction> out) {
            return new StreamObserver<>() {
                @Override
                public void onNext(PlatformInboundInstruction instruction) {
                    // registrations, heartbeats and processor information: nothing to answer for a witness
                }

                @Override
                public void onError(Throwable error) {
                    // the client went away
                }

                @Override
                public void onCompleted() {
                    out.onCompleted();
                }
            };
        }
    }

    private final class Events extends EventStoreGrpc.EventStoreImplBase {

        @Override
        public StreamObserver<Event> appendEvent(StreamObserver<Confirmation> answer) {
            List<Event> transaction = new CopyOnWriteArrayList<>();
            return new StreamObserver<>() {
                @Override
                public void onNext(Event event) {
                    transaction.add(event);
                }

                @Override
                public void onError(Throwable error) {
                    // a transaction the client gave up: nothing appended
                }

                @Override
                public void onCompleted() {
                    appended.addAll(transaction);
                    answer.onNext(Confirmation.newBuilder().setSuccess(true).build());
                    answer.onCompleted();
                }
            };
        }
    }
}
