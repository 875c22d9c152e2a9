// What the socket scenarios (echo, connections: docs/PROTOCOL.md §4) share in every Java
// contestant, whichever socket API it uses: the listener's address, how much a server reads
// at once, and the byte pattern the clients send.

package taskbench;

import java.net.InetAddress;
import java.net.UnknownHostException;

public final class Sockets {
    private Sockets() {}

    /** 127.0.0.1: IPv4 loopback, as the protocol says (not ::1, whatever the JDK prefers). */
    public static final InetAddress LOOPBACK = loopback();

    /** The most an echo server reads at once: 64 KiB. */
    public static final int SERVER_READ = 64 * 1024;

    /**
     * The byte client `c` sends in round `r` (every byte of the round), and the one byte of
     * `connections`' client `c` with `r` = 0: (c + r) mod 255 + 1, never 0.
     */
    public static byte pattern(int c, int r) {
        return (byte) ((c % 255 + r % 255) % 255 + 1);
    }

    private static InetAddress loopback() {
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // never: four bytes are an IPv4 address
        }
    }
}
