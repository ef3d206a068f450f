package dev.voiceplane.assistant.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/** Request bodies of the tests. */
final class Bodies {

    private Bodies() {
    }

    /**
     * Every documented field of an Assistant (docs/assistants-and-squads.md, "What is stored and returned") set, with
     * realistic values; the knowledge base names the two given files.
     */
    static String maximalAssistant(String fileA, String fileB) {
        return maximalAssistant(fileA, fileB, toolOfOrgA());
    }

    /** The same naming {@code toolId} in {@code model.toolIds} (for bodies that are never stored). */
    static String maximalAssistant(String fileA, String fileB, String toolId) {
        return maximal(fileA, fileB).replace("TOOL-OF-ORG-A", toolId);
    }

    private static String toolOfOrgA;

    /**
     * A stored tool of organisation A, created once per test run: {@code model.toolIds} must name tools of the
     * caller's organisation (every test that writes the maximal assistant writes it as organisation A).
     */
    static synchronized String toolOfOrgA() {
        if (toolOfOrgA == null) {
            toolOfOrgA = dev.voiceplane.kit.testing.TestClients.orgA().body("{\"type\":\"endCall\"}").when()
                    .post("/tool").then().statusCode(201).extract().path("id");
        }
        return toolOfOrgA;
    }

    private static String maximal(String fileA, String fileB) {
        return """
                {
                  "transcriber": {"provider": "deepgram", "model": "nova-2", "language": "en-US", "smartFormat": true,
                                  "keywords": ["Zahnarzt:2", "Invisalign"]},
                  "model": {
                    "messages": [
                      {"content": "You are Ada, the front desk of Alpine Dental in Zürich. Keep answers short.", "role": "system"},
                      {"content": "Hi, this is Ada from Alpine Dental.", "role": "assistant"}
                    ],
                    "tools": [
                      {
                        "async": false,
                        "type": "transferCall",
                        "messages": [
                          {"type": "request-start", "content": "One moment, I am putting you through.",
                           "conditions": [{"param": "department", "value": "billing", "operator": "eq"},
                                          {"param": "urgency", "value": 2.50, "operator": "gte"}]}
                        ],
                        "destinations": [
                          {"type": "assistant", "assistantName": "Billing", "message": "Transferring you to billing now.",
                           "description": "Invoices, payments and insurance questions"}
                        ],
                        "function": {
                          "name": "transfer_to_department",
                          "description": "Hands the call to the department the caller asked for",
                          "parameters": {
                            "type": "object",
                            "properties": {
                              "department": {"type": "string", "enum": ["billing", "support"], "description": "Where to"},
                              "urgency": {"type": "number", "minimum": 0, "maximum": 5}
                            },
                            "required": ["department"]
                          }
                        },
                        "server": {"url": "https://hooks.alpine-dental.example/voice/tools", "secret": "whsec_tools_8f2c1b"}
                      }
                    ],
                    "toolIds": ["TOOL-OF-ORG-A"],
                    "provider": "openai",
                    "model": "gpt-4o",
                    "fallbackModels": ["gpt-4-turbo", "gpt-3.5-turbo"],
                    "semanticCachingEnabled": true,
                    "numFastTurns": 1,
                    "temperature": 0.7,
                    "knowledgeBase": {"provider": "canonical", "topK": 5, "fileIds": ["%s", "%s"]},
                    "maxTokens": 250,
                    "emotionRecognitionEnabled": true
                  },
                  "voice": {"inputPreprocessingEnabled": true, "inputMinCharacters": 30,
                            "inputPunctuationBoundaries": [".", "!", "?", ";"], "fillerInjectionEnabled": false,
                            "provider": "azure", "voiceId": "de-CH-LeniNeural", "speed": 1.1},
                  "firstMessageMode": "assistant-speaks-first",
                  "recordingEnabled": true,
                  "hipaaEnabled": false,
                  "clientMessages": ["transcript", "hang", "tool-calls", "speech-update", "metadata", "conversation-update"],
                  "serverMessages": ["end-of-call-report", "status-update", "hang", "tool-calls"],
                  "silenceTimeoutSeconds": 30,
                  "responseDelaySeconds": 0.4,
                  "llmRequestDelaySeconds": 0.1,
                  "numWordsToInterruptAssistant": 2,
                  "maxDurationSeconds": 1800,
                  "backgroundSound": "office",
                  "backchannelingEnabled": true,
                  "name": "Ada – Alpine Dental front desk",
                  "firstMessage": "Grüezi, Alpine Dental, this is Ada. How can I help you today?",
                  "voicemailDetection": {"provider": "twilio", "voicemailDetectionTypes": ["machine_end_beep", "machine_end_silence"],
                                         "enabled": true, "machineDetectionTimeout": 30, "machineDetectionSpeechThreshold": 2400,
                                         "machineDetectionSpeechEndThreshold": 1200, "machineDetectionSilenceTimeout": 5000},
                  "voicemailMessage": "Hello, this is Ada from Alpine Dental calling about your appointment. Please call us back.",
                  "endCallMessage": "Thank you for calling Alpine Dental. Goodbye!",
                  "endCallPhrases": ["goodbye", "talk to you soon", "auf Wiederhören"],
                  "metadata": {"clinicId": "zrh-01", "tier": 2, "rating": 4.50, "tags": ["dental", "de-CH"],
                               "escalation": {"owner": null, "levels": [1, 2.0, {"after": "PT5M"}], "active": true}},
                  "serverUrl": "https://hooks.alpine-dental.example/voice/events",
                  "serverUrlSecret": "whsec_events_1d9a77",
                  "analysisPlan": {
                    "summaryPrompt": "Summarise the call in two sentences for the clinic staff.",
                    "successEvaluationPrompt": "Did the caller get an appointment or the answer they needed?",
                    "successEvaluationRubric": "NumericScale",
                    "structuredDataPrompt": "Extract the appointment details the caller agreed to.",
                    "structuredDataSchema": {
                      "type": "object",
                      "items": {"type": "string"},
                      "properties": {"appointmentBooked": {"type": "boolean"}, "patientName": {"type": "string"},
                                     "slot": {"type": "string", "format": "date-time"}},
                      "description": "Outcome of the call",
                      "required": ["appointmentBooked"]
                    }
                  }
                }
                """.formatted(fileA, fileB);
    }

    /** The smallest object each nested part needs to be valid, so that a test can set one field inside it. */
    private static final Map<String, String> VALID_PARENTS = Map.of(
            "transcriber", "{\"provider\":\"deepgram\"}",
            "model", "{\"provider\":\"openai\",\"model\":\"gpt-4o\"}",
            "model.knowledgeBase", "{\"provider\":\"canonical\",\"fileIds\":[]}",
            "voice", "{\"provider\":\"azure\",\"voiceId\":\"en-US-JennyNeural\"}",
            "voicemailDetection", "{}",
            "analysisPlan", "{}",
            "analysisPlan.structuredDataSchema", "{\"type\":\"object\"}");

    /** An assistant body with one field set at a dotted path ({@code model.temperature}) to the given JSON. */
    static String assistantWith(String path, String valueJson) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        String[] segments = path.split("\\.");
        ObjectNode holder = root;
        String prefix = "";
        for (int i = 0; i < segments.length - 1; i++) {
            prefix = prefix.isEmpty() ? segments[i] : prefix + "." + segments[i];
            JsonNode next = holder.get(segments[i]);
            if (next == null) {
                next = Clients.object(VALID_PARENTS.getOrDefault(prefix, "{}"));
                holder.set(segments[i], next);
            }
            holder = (ObjectNode) next;
        }
        holder.set(segments[segments.length - 1], Clients.tree(valueJson));
        return root.toString();
    }
}
