// A minimal fake of the Twilio REST API for deploy/bench/inbound: a number lookup answers that the account owns the
// number asked for (IncomingPhoneNumbers.json?PhoneNumber=...), an update of a number answers its sid, anything else
// answers 200 {}. Run: java fake-carrier.java <port>
import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

public class FakeCarrier {
    public static void main(String[] args) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])), 1024);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            exchange.getRequestBody().transferTo(OutputStream.nullOutputStream());
            String path = exchange.getRequestURI().getPath();
            String query = exchange.getRequestURI().getRawQuery() == null ? "" : exchange.getRequestURI().getRawQuery();
            String sid = "PN" + Integer.toHexString(path.hashCode() & 0x7fffffff);
            String answer = "{}";
            if (path.endsWith("/IncomingPhoneNumbers.json")) {
                String number = "";
                for (String pair : query.split("&")) {
                    if (pair.startsWith("PhoneNumber=")) {
                        number = URLDecoder.decode(pair.substring("PhoneNumber=".length()), StandardCharsets.UTF_8);
                    }
                }
                sid = "PN" + Integer.toHexString(number.hashCode() & 0x7fffffff);
                answer = "{\"incoming_phone_numbers\":[{\"sid\":\"" + sid + "\",\"phone_number\":\"" + number
                        + "\",\"voice_url\":\"\",\"status_callback\":\"\"}],\"page\":0}";
            } else if (path.contains("/IncomingPhoneNumbers/")) {
                answer = "{\"sid\":\"" + path.substring(path.lastIndexOf('/') + 1).replace(".json", "") + "\"}";
            }
            byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        System.out.println("fake carrier listening on " + args[0]);
    }
}
