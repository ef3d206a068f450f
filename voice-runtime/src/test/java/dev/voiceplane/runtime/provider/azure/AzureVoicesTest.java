package dev.voiceplane.runtime.provider.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.runtime.provider.ProviderFailure;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * Where Azure is asked and what it is sent: the region's own host unless {@code VOICE_AZURE_SPEECH_URL} says
 * otherwise, a clear refusal when neither says where, and SSML that holds the caller-facing text as text, never as
 * markup.
 */
class AzureVoicesTest {

    @Test
    void theRegionsOwnHostIsAskedWhenNoBaseUrlIsSet() {
        assertEquals("https://eastus.tts.speech.microsoft.com/cognitiveservices/v1", AzureVoices.endpoint("", "eastus"));
        assertEquals("https://westeurope.tts.speech.microsoft.com/cognitiveservices/v1",
                AzureVoices.endpoint(null, " WestEurope "));
    }

    @Test
    void theBaseUrlIsUsedWhateverTheRegion() {
        assertEquals("http://127.0.0.1:8123/cognitiveservices/v1",
                AzureVoices.endpoint("http://127.0.0.1:8123", "eastus"));
        assertEquals("https://speech.example.internal/tts/cognitiveservices/v1",
                AzureVoices.endpoint("https://speech.example.internal/tts/", null));
    }

    @Test
    void noRegionAndNoBaseUrlIsARefusalThatSaysWhy() {
        ProviderFailure missing = assertThrows(ProviderFailure.class, () -> AzureVoices.endpoint("", null));
        assertEquals("voice", missing.stage());
        assertEquals("azure", missing.provider());
        assertEquals("no-key", missing.kind());
        assertEquals("the organisation's azure credential has no region (an Azure region name such as eastus), and"
                + " VOICE_AZURE_SPEECH_URL is not set, so the voice provider azure has no address", missing.getMessage());
        assertThrows(ProviderFailure.class, () -> AzureVoices.endpoint("", " "));
    }

    @Test
    void aRegionThatWouldChangeTheHostIsRefused() {
        for (String region : new String[] {"evil.example/x#", "eastus.attacker.example", "east us", "eastus/"}) {
            ProviderFailure refused = assertThrows(ProviderFailure.class, () -> AzureVoices.endpoint("", region),
                    region);
            assertTrue(refused.getMessage().contains("is not an Azure region name"), refused.getMessage());
            assertTrue(!refused.getMessage().contains(region), "the credential's value is not echoed: "
                    + refused.getMessage());
        }
    }

    @Test
    void theTextIsSentAsTextInsideTheVoiceAndItsProsody() throws Exception {
        String text = "Fish & chips <b>cost</b> \"£9\" at Joe's\u0001.";
        Document ssml = parse(AzureVoices.ssml("en-GB-SoniaNeural", "en-GB", 1.25, text));
        Element speak = ssml.getDocumentElement();
        assertEquals("speak", speak.getTagName());
        assertEquals("en-GB", speak.getAttribute("xml:lang"));
        Element voice = (Element) speak.getElementsByTagName("voice").item(0);
        assertEquals("en-GB-SoniaNeural", voice.getAttribute("name"));
        Element prosody = (Element) voice.getElementsByTagName("prosody").item(0);
        assertEquals("1.25", prosody.getAttribute("rate"));
        assertEquals("Fish & chips <b>cost</b> \"£9\" at Joe's.", prosody.getTextContent(),
                "markup in the text stays text; a character XML forbids is dropped");
        assertEquals(0, prosody.getElementsByTagName("b").getLength());
        Document plain = parse(AzureVoices.ssml("en-US-JennyNeural", "en-US", null, "Hello."));
        assertEquals(0, plain.getElementsByTagName("prosody").getLength(), "no speed, no prosody");
        assertEquals("Hello.", plain.getElementsByTagName("voice").item(0).getTextContent());
    }

    @Test
    void theVoiceNameGivesTheLanguageAndTheShortNamesAreAzuresVoices() {
        assertEquals("en-US-AndrewMultilingualNeural", AzureVoices.voiceName("andrew"));
        assertEquals("en-US-EmmaMultilingualNeural", AzureVoices.voiceName("Emma"));
        assertEquals("de-DE-KatjaNeural", AzureVoices.voiceName("de-DE-KatjaNeural"));
        assertEquals("de-DE", AzureVoices.locale("de-DE-KatjaNeural"));
        assertEquals("zh-CN", AzureVoices.locale("zh-CN-shaanxi-XiaoniNeural"));
        assertEquals("en-US", AzureVoices.locale("MyCustomVoice"));
    }

    private static Document parse(String xml) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }
}
