package dev.voiceplane.file.nativeimage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.graalvm.nativeimage.hosted.Feature;
import org.graalvm.nativeimage.hosted.RuntimeReflection;

/**
 * What XMLBeans needs, in a native executable, to read the parts of a DOCX that the extractor reads through it, and
 * nothing more (docs/native.md, "DOCX natively").
 *
 * <p>XMLBeans creates a schema type's {@code *Impl} class by name, through its constructor, and reads the constants of
 * an enumeration's {@code Enum} class by reflection; a type the executable does not hold fails at run time. Tika's
 * streaming DOCX reader takes the document's text with a SAX parser; XMLBeans only reads the numbering part (list
 * labels), the extended and custom document properties (metadata), and the types those refer to. So this registers
 * the classes of those schema packages (1,106 of {@code poi-ooxml-full}'s 6,063) and of XMLBeans' built-in types,
 * instead of all of them: the executable is 19 MB smaller and holds 7 MiB less when idle. The compiled schemas
 * ({@code .xsb}) are resources, included by {@code application.properties}.
 *
 * <p>Runs in the native-image builder only (named in this module's {@code native-image.properties}); the JVM never
 * loads it.
 */
public final class WordSchemasFeature implements Feature {

    /** Folders of class files, in the jars that hold them, whose types are registered. */
    static final List<String> PACKAGES = List.of(
            "org/apache/xmlbeans/impl/values/",
            "org/openxmlformats/schemas/wordprocessingml/x2006/main/",
            "org/openxmlformats/schemas/officeDocument/x2006/sharedTypes/",
            "org/openxmlformats/schemas/officeDocument/x2006/relationships/",
            "org/openxmlformats/schemas/officeDocument/x2006/extendedProperties/",
            "org/openxmlformats/schemas/officeDocument/x2006/customProperties/",
            "org/openxmlformats/schemas/officeDocument/x2006/docPropsVTypes/");

    @Override
    public String getDescription() {
        return "registers the XMLBeans schema types a DOCX's text and properties are read with";
    }

    @Override
    public void beforeAnalysis(BeforeAnalysisAccess access) {
        Class<?> xmlObject = access.findClassByName("org.apache.xmlbeans.XmlObject");
        Class<?> enumBase = access.findClassByName("org.apache.xmlbeans.StringEnumAbstractBase");
        if (xmlObject == null || enumBase == null) {
            throw new IllegalStateException("XMLBeans is not on the image's class path");
        }
        int registered = 0;
        for (Path entry : access.getApplicationClassPath()) {
            if (!entry.toString().endsWith(".jar")) {
                continue;
            }
            for (String name : classNames(entry)) {
                Class<?> type = access.findClassByName(name);
                if (type == null) {
                    continue;
                }
                RuntimeReflection.register(type);
                if (xmlObject.isAssignableFrom(type) && !type.isInterface()
                        && !Modifier.isAbstract(type.getModifiers())) {
                    RuntimeReflection.register(type.getDeclaredConstructors());
                }
                if (enumBase.isAssignableFrom(type)) {
                    RuntimeReflection.register(type.getDeclaredFields());
                }
                registered++;
            }
        }
        if (registered == 0) {
            throw new IllegalStateException("no XMLBeans schema type found on the image's class path");
        }
    }

    /** The classes of {@link #PACKAGES} (their {@code impl} folders included) in one jar. */
    static List<String> classNames(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            return file.stream()
                    .map(ZipEntry::getName)
                    .filter(name -> name.endsWith(".class") && PACKAGES.stream().anyMatch(name::startsWith))
                    .map(name -> name.substring(0, name.length() - ".class".length()).replace('/', '.'))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jar, e);
        }
    }
}
