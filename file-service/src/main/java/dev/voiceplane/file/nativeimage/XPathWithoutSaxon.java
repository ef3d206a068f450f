package dev.voiceplane.file.nativeimage;

import com.oracle.svm.core.annotate.Substitute;
import com.oracle.svm.core.annotate.TargetClass;
import java.util.Map;
import org.apache.xmlbeans.XmlOptions;
import org.apache.xmlbeans.impl.xpath.Path;
import org.apache.xmlbeans.impl.xpath.XQuery;
import org.apache.xmlbeans.impl.xpath.XPathFactory;

/**
 * XMLBeans hands an XPath or XQuery it cannot evaluate itself to Saxon, which this service does not carry (nothing
 * it runs asks XMLBeans for one). The native-image builder links every call at build time, so it refuses the calls
 * into the missing Saxon; these two methods fail instead, as they would on the JVM without Saxon. Applied by the
 * native-image builder only.
 */
@TargetClass(XPathFactory.class)
final class XPathWithoutSaxon {

    private XPathWithoutSaxon() {
    }

    @Substitute
    public static Path getCompiledPathSaxon(String pathExpr, String currentVar, Map<String, String> namespaces) {
        throw new UnsupportedOperationException("XPath through Saxon is not available in this executable");
    }

    @Substitute
    static synchronized XQuery getCompiledQuery(String queryExpr, String currentVar, XmlOptions options) {
        throw new UnsupportedOperationException("XQuery through Saxon is not available in this executable");
    }
}
