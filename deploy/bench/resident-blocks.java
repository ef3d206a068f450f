// Which pages of a running process's executable are resident, by mapping, counted in 64 KiB blocks (the kernel maps
// a file's cached pages around each one touched, so residency comes in whole blocks). For BENCHMARKS.md's reading of
// a native executable's idle memory: code, and the image heap's partitions. Needs to read /proc/<pid>/pagemap (the
// process's owner or root). Run: java deploy/bench/resident-blocks.java <pid>
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

public class ResidentBlocks {

    private static final int PAGE = 4096;
    private static final int BLOCK_PAGES = 16;

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: java deploy/bench/resident-blocks.java <pid>");
            System.exit(2);
        }
        String pid = args[0];
        String executable = Files.readSymbolicLink(Path.of("/proc", pid, "exe")).toString();
        List<String> mappings = Files.readAllLines(Path.of("/proc", pid, "maps")).stream()
                .filter(line -> line.endsWith(executable))
                .toList();
        System.out.println("mapping of " + executable + ": pages resident, 64 KiB blocks whole / in part / not at all");
        try (RandomAccessFile pagemap = new RandomAccessFile("/proc/" + pid + "/pagemap", "r")) {
            for (String mapping : mappings) {
                String[] fields = mapping.split("\\s+");
                String[] range = fields[0].split("-");
                long start = Long.parseUnsignedLong(range[0], 16);
                long end = Long.parseUnsignedLong(range[1], 16);
                int pages = (int) ((end - start) / PAGE);
                byte[] entries = new byte[pages * 8];
                pagemap.seek(start / PAGE * 8);
                pagemap.readFully(entries);
                ByteBuffer buffer = ByteBuffer.wrap(entries).order(ByteOrder.LITTLE_ENDIAN);
                int resident = 0;
                int whole = 0;
                int partly = 0;
                int none = 0;
                for (int block = 0; block < pages; block += BLOCK_PAGES) {
                    int size = Math.min(BLOCK_PAGES, pages - block);
                    int present = 0;
                    for (int page = block; page < block + size; page++) {
                        if (buffer.getLong(page * 8) < 0) { // bit 63: the page is present
                            present++;
                        }
                    }
                    resident += present;
                    if (present == size) {
                        whole++;
                    } else if (present == 0) {
                        none++;
                    } else {
                        partly++;
                    }
                }
                System.out.printf(Locale.ROOT, "%s %s %8.1f MiB: %7d of %7d pages (%6.1f MiB); blocks %5d / %5d / %5d%n",
                        fields[1], fields[0], (double) pages * PAGE / (1 << 20), resident, pages,
                        (double) resident * PAGE / (1 << 20), whole, partly, none);
            }
        }
    }
}
