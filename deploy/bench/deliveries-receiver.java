// A minimal webhook receiver for deploy/bench/deliveries: answers every POST with 204 after reading the body,
// counts what it got, and answers GET /count with that number. Run: java deliveries-receiver.java <port>
import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

public class DeliveriesReceiver {
    public static void main(String[] args) throws Exception {
        AtomicLong received = new AtomicLong();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])), 1024);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                body.transferTo(java.io.OutputStream.nullOutputStream());
            }
            if (exchange.getRequestMethod().equals("GET")) {
                byte[] count = Long.toString(received.get()).getBytes();
                exchange.sendResponseHeaders(200, count.length);
                exchange.getResponseBody().write(count);
            } else {
                received.incrementAndGet();
                exchange.sendResponseHeaders(204, -1);
            }
            exchange.close();
        });
        server.start();
        System.out.println("receiver listening on " + args[0]);
    }
}
