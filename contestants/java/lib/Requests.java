// What the bluebird request scenarios (doxbee, parallel; docs/SEEDS.md#bluebird) do besides
// waiting, shared by every Java contestant so that each one only says how it waits: the
// transaction, the query of one fake I/O op, and the synchronous steps of a doxbee upload.

package taskbench;

import java.lang.ref.Reference;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

public final class Requests {
    private Requests() {}

    /**
     * A request's transaction. It counts the fake I/O ops completed in it and holds each op's
     * query until the op completes, as the Go contestant does: the store makes the query a
     * real heap object, which the JIT could otherwise remove (it never leaves its method in
     * the thread contestants). Every op has a slot of its own, so the ops of a fan-out never
     * write the same one.
     */
    public static final class Transaction {
        private final Query[] pending;
        private final AtomicInteger done = new AtomicInteger();

        /** Begins a transaction for ops with indexes below `slots`. */
        public Transaction(int slots) {
            pending = new Query[slots];
        }

        /** Starts fake I/O op `index`: its query, held here until the op completes. */
        public Query query(int index) {
            var query = new Query(new QueryParams(index), this);
            pending[index] = query;
            return query;
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
    public record Query(QueryParams params, Transaction tx) {
        /** The op's timer fired: its query is let go and the op counted in the transaction. */
        public void complete() {
            tx.pending[params.index()] = null;
            tx.done.incrementAndGet();
        }
    }

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
            this.tx = new Transaction(10);
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
