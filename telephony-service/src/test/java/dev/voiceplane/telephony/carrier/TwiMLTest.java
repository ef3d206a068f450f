package dev.voiceplane.telephony.carrier;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What comes from outside never becomes markup in a TwiML answer. */
class TwiMLTest {

    @Test
    void messagesAndParametersAreEscaped() {
        assertEquals("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Response><Say>Bye &lt;/Say&gt;&lt;Dial&gt;+1900"
                        + "&lt;/Dial&gt; &amp; &quot;ok&quot;</Say><Hangup/></Response>",
                TwiML.sayAndHangUp("Bye </Say><Dial>+1900</Dial> & \"ok\"\u0000"));
        assertEquals("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Response><Connect><Stream url=\"wss://r.example/s?a=1&amp;b=2\">"
                        + "<Parameter name=\"callId\" value=\"x&quot;/&gt;&lt;Hangup/&gt;\"/></Stream></Connect></Response>",
                TwiML.connectStream("wss://r.example/s?a=1&b=2", Map.of("callId", "x\"/><Hangup/>")));
    }
}
