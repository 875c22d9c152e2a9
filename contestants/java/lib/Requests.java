// What the bluebird request scenarios (doxbee, parallel; docs/SEEDS.md#bluebird) do besides
// waiting, shared by every Java contestant so that each one only says how it waits: the
// transaction, the query of one fake I/O op, and the synchronous steps of a doxbee upload.

package taskbench;

import java.lang.ref.Reference;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

public final class Requests {
    private Requests() {}

    /** A request's transaction: it counts the fake I/O ops completed in it. */
    public static final class Transaction {
        private final AtomicInteger done = new AtomicInteger();

        /**
         * The fake database call of op `index` (docs/PROTOCOL.md §4 "One fake I/O op"): it
         * makes the op's query, with new params, and lets it go once the call is made, as
         * the seed does; the JIT may then elide it, as V8 may elide the seed's. The caller
         * then hands the runtime's timer the op's completion, which calls {@link #complete}.
         */
        public void call(int index) {
            new Query(new QueryParams(index), this);
        }

        /** An op's timer fired: the op counts in this transaction. */
        public void complete() {
            done.incrementAndGet();
        }

        /** The ops of this transaction that have completed. */
        public long done() {
            return done.get();
        }
    }

    /**
     * The query of one fake I/O op, as bluebird's fake database call makes one per call
     * (docs/PROTOCOL.md §4 "One fake I/O op"): its params and the transaction it runs in.
     */
    public record Query(QueryParams params, Transaction tx) {}

    /** A query's parameters: the op's index within its request. */
    public record QueryParams(int index) {}

    /** The version record of doxbee's step 4. */
    public record Version(
            int userId, Instant created, int blobId, String creator, Integer previousId,
            String hash) {}

    /**
     * One doxbee upload (docs/PROTOCOL.md §4): the values its synchronous steps build stay
     * here, alive until the request ends, as they stay in the original's closures.
     */
    public static final class Upload {
        private final int request;
        private final String blob;
        public final Transaction tx;
        private Version version;
        private String fileName;
        private String uuid;

        /** Step 1: create the blob and begin the transaction (its ops are steps 2 … 9). */
        public Upload(int request) {
            this.request = request;
            this.blob = "blob-" + request;
            this.tx = new Transaction();
        }

        /** Step 4: the version record (the lookup of step 3 found no file). */
        public void buildVersion() {
            version = new Version(
                    request, Instant.now(), request, "user-" + request, null, "hash");
        }

        /** Step 6: the file name (the path's last segment) and uuid of the "create file" query. */
        public void buildFileQuery() {
            String[] segments = ("/files/" + request + "/upload.bin").split("/");
            fileName = segments[segments.length - 1];
            uuid = "%032x".formatted(request);
        }

        /** The request ends: its fake I/O count. What the steps built was alive until now. */
        public long finish() {
            Reference.reachabilityFence(this);
            return tx.done();
        }
    }
}
