// The `cpp-asio` contestant: the eleven scenarios as C++20 coroutines on Boost.Asio 1.74
// (Asio 1.18): `asio::awaitable` tasks started with `co_spawn`, `steady_timer` for every
// sleep, `co_await asio::post(…)` to yield, Asio's tcp acceptor and sockets for echo and
// connections. protocol.hpp does the command line and timing.
//
// Multi-core setup: one io_context per core, each run by a thread of its own — the
// "io_context per CPU" design of Asio's HTTP server 2 example, which the issue asked for.
// Each iteration runs on the first context, as that server's acceptor stays on one; as it
// deals each new connection to the next context round-robin, the iteration deals the
// top-level tasks of a scenario (the spawn and yield tasks, the sleepers, doxbee's and
// parallel's requests, pingpong's pairs, the chain's first link); what a task spawns in
// turn (skynet's children, the next link, a request's fan-out ops, a pinger's ponger) goes
// on the task's own executor, `this_coro::executor`, as the coroutine echo server spawns
// each session on its listener's executor and as Asio's overview has a per-client object's
// coroutines share one executor "so that no explicit synchronisation is required". A
// coroutine then only ever runs on its context's one thread, so what it shares with the
// tasks it joins needs no strand or lock; a single io_context run by every thread (HTTP
// server 3) would need a strand around each join and mailbox.
//
// Asio 1.18 has no channel (experimental::channel came with Asio 1.22, Boost 1.78) and no
// way to await several tasks at once (awaitable operators and experimental::parallel_group
// came with Asio 1.20, Boost 1.77). What stands in is what Asio's own C++20 chat server
// example waits on: a steady_timer that never expires, whose wait is cancelled to wake the
// waiter. `spawn_sum` joins with it and `mailbox` is a one-receiver channel built on it.

#include <utility>  // Boost 1.74's awaitable.hpp uses std::exchange without including it.

#include <boost/asio.hpp>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "protocol.hpp"

namespace asio = boost::asio;
using asio::awaitable;
using asio::use_awaitable;
using std::int64_t;
using ms = std::chrono::milliseconds;

// Keeps a value alive and observed, as Rust's black_box and Go's runtime.KeepAlive do, so
// the compiler cannot drop the work that built it.
inline void keep(const void* p) { asm volatile("" : : "r"(p) : "memory"); }

// N io_contexts, each run by its own thread until the process exits.
class pool {
 public:
  explicit pool(std::size_t n) : contexts_(n) {
    for (auto& context : contexts_) {
      threads_.emplace_back([&context] {
        auto work = asio::make_work_guard(context);
        context.run();
      });
    }
  }
  // The context the next top-level task goes to. Each thread deals round-robin on its
  // own, as HTTP server 2's io_context_pool does, without a counter shared between threads.
  asio::any_io_executor next() {
    thread_local std::size_t turn = 0;
    return contexts_[turn++ % contexts_.size()].get_executor();
  }
  // The context the program's main coroutine runs on, where it deals from.
  asio::any_io_executor first() { return contexts_.front().get_executor(); }

 private:
  std::deque<asio::io_context> contexts_;  // a deque: io_contexts cannot move
  std::vector<std::thread> threads_;
};

// One context per core by default; TASKBENCH_THREADS (set under `taskbench --cpus N`) says
// how many otherwise, as hardware_concurrency() ignores the CPUs the process is pinned to.
std::size_t thread_count() {
  const char* n = std::getenv("TASKBENCH_THREADS");
  return std::max<std::size_t>(
      1, n ? std::strtoul(n, nullptr, 10) : std::thread::hardware_concurrency());
}

pool* contexts;

// A timer that never expires, the waiter's side of the stand-in for a channel: `wait` ends
// when `notify`, called on the same executor, cancels the wait.
class condition {
 public:
  explicit condition(const asio::any_io_executor& ex)
      : timer_(ex, asio::steady_timer::time_point::max()) {}
  auto wait() { return timer_.async_wait(asio::redirect_error(use_awaitable, cancelled_)); }
  void notify() { timer_.cancel(); }
  asio::any_io_executor get_executor() { return timer_.get_executor(); }

 private:
  asio::steady_timer timer_;
  boost::system::error_code cancelled_;
};

// Where spawn_sum puts its tasks: dealt across the contexts (a scenario's top-level tasks)
// or on the spawner's own executor (the tasks a task spawns).
enum class place { spread, here };

// Spawns task(0) … task(n−1), each a coroutine where `where` says, then waits until all
// have finished and returns the sum of their results. Each task's co_spawn completion
// handler is bound to the joiner's executor, so the sum and count are only touched there.
template <class Task>
awaitable<int64_t> spawn_sum(int64_t n, place where, Task task) {
  const auto here = co_await asio::this_coro::executor;
  condition all_done(here);
  int64_t sum = 0, pending = n;
  for (int64_t i = 0; i < n; ++i) {
    asio::co_spawn(where == place::spread ? contexts->next() : here, task(i),
                   asio::bind_executor(all_done.get_executor(),
                                       [&](std::exception_ptr error, int64_t result) {
                                         if (error) std::rethrow_exception(error);
                                         sum += result;
                                         if (--pending == 0) all_done.notify();
                                       }));
  }
  while (pending > 0) co_await all_done.wait();
  co_return sum;
}

// A channel with one receiver, on the receiver's executor: `send`, from any thread, hands
// the value over there; `receive` takes the oldest value, waiting for one if there is none.
template <class T>
class mailbox {
 public:
  explicit mailbox(const asio::any_io_executor& receiver) : ready_(receiver) {}
  void send(T value) {
    asio::post(ready_.get_executor(), [this, value] {
      values_.push_back(value);
      ready_.notify();
    });
  }
  awaitable<T> receive() {
    while (values_.empty()) co_await ready_.wait();
    T value = values_.front();
    values_.pop_front();
    co_return value;
  }

 private:
  condition ready_;
  std::deque<T> values_;
};

awaitable<void> sleep_for(std::chrono::nanoseconds duration) {
  asio::steady_timer timer(co_await asio::this_coro::executor, duration);
  co_await timer.async_wait(use_awaitable);
}

awaitable<int64_t> sleeper(int64_t i, ms delay) {
  co_await sleep_for(delay);
  co_return i;
}

// One sleep after another on this task's timer, each timed with the monotonic clock.
awaitable<protocol::outcome> timer(int64_t step_us, int64_t total_ms) {
  const std::chrono::microseconds step(step_us);
  std::vector<std::chrono::nanoseconds> slept;
  for (int64_t n = total_ms * 1000 / step_us; n > 0; --n) {
    const auto start = std::chrono::steady_clock::now();
    co_await sleep_for(step);
    slept.push_back(std::chrono::steady_clock::now() - start);
  }
  co_return protocol::oversleep(slept, step);
}

// --- doxbee and parallel (docs/PROTOCOL.md §4) -------------------------------------------

// The transaction a request begins; its ops refer to it and end before it does.
struct transaction {
  int64_t request;
};

// The query of one fake I/O op, as bluebird's fake database call makes one per call: a
// heap object holding its params (the op's index in its request) and its transaction.
struct query {
  struct params {
    int64_t index;
  } params;
  const transaction* tx;
};

// The fake database call: it takes its query and lets it go once the call is made, as the
// seed's does (the compiler may elide the allocation, as V8 may the seed's).
void call(std::unique_ptr<query> /*q*/) {}

// One fake I/O op: the call, with a query made for it, then a wait on a steady_timer of its
// own, which is the op's completion. Returns 1, so that callers count the ops that really
// completed.
awaitable<int64_t> fake_io(int64_t index, const transaction& tx, ms io) {
  call(std::make_unique<query>(query{{index}, &tx}));
  co_await sleep_for(io);
  co_return 1;
}

// The version record of step 4.
struct version {
  int64_t user_id;
  std::chrono::system_clock::time_point created;
  int64_t blob_id;
  std::string creator;
  std::optional<int64_t> previous_id;
  std::string_view hash;
};

// One doxbee upload: the seven fake I/O steps awaited in turn, with the synchronous work
// between them; what the steps build lives until the request ends.
awaitable<int64_t> upload(int64_t i, ms io) {
  // 1. Create the blob and begin the transaction.
  const std::string blob = "blob-" + std::to_string(i);
  const transaction tx{i};
  int64_t done = co_await fake_io(2, tx, io);  // 2. put the blob
  done += co_await fake_io(3, tx, io);         // 3. look the file up: it never exists
  // 4. Build the version record.
  const version record{i, std::chrono::system_clock::now(), i, "user-" + std::to_string(i),
                       std::nullopt, "hash"};
  done += co_await fake_io(5, tx, io);  // 5. insert the version
  // 6. Name the file after the path's last segment, make its uuid, run the query.
  const std::string path = "/files/" + std::to_string(i) + "/upload.bin";
  const std::string file = path.substr(path.rfind('/') + 1);
  char uuid[33];
  std::snprintf(uuid, sizeof uuid, "%032" PRIx64, static_cast<std::uint64_t>(i));
  done += co_await fake_io(6, tx, io);
  done += co_await fake_io(7, tx, io);  // 7. insert the file–version link
  done += co_await fake_io(8, tx, io);  // 8. update the file's current version
  done += co_await fake_io(9, tx, io);  // 9. commit
  keep(&blob), keep(&record), keep(&file), keep(uuid);
  co_return done;
}

// One madeup-parallel request: `fanout` ops at once, each a task of its own as in every
// contestant whose unit of concurrency is a task, on the request's executor, joined, then
// one commit.
awaitable<int64_t> fan_out(int64_t request, int64_t fanout, ms io) {
  const transaction tx{request};
  const int64_t done =
      co_await spawn_sum(fanout, place::here, [&](int64_t k) { return fake_io(k, tx, io); });
  co_return done + co_await fake_io(fanout, tx, io);
}

// --- task scenarios -------------------------------------------------------------------------

// A skynet node: a leaf returns its number, an inner node spawns its ten children on its
// own executor and sums what they return.
awaitable<int64_t> skynet(int64_t num, int64_t size) {
  if (size == 1) co_return num;
  const int64_t child = size / 10;
  co_return co_await spawn_sum(10, place::here,
                               [=](int64_t k) { return skynet(num + k * child, child); });
}

// The ponger of a pair returns every ball, `rounds` times, then ends.
awaitable<void> ponger(mailbox<int64_t>& pings, mailbox<int64_t>& pongs, int64_t rounds) {
  for (int64_t k = 0; k < rounds; ++k) pongs.send(co_await pings.receive());
}

// The pinger of a pair: spawns its ponger on its own executor, plays `rounds` round trips
// with it, one mailbox each way, and returns the replies it received. The ponger's last act
// is its last reply, so once that is in, neither mailbox is touched again.
awaitable<int64_t> pinger(int64_t rounds) {
  const auto here = co_await asio::this_coro::executor;
  mailbox<int64_t> pings(here), pongs(here);
  asio::co_spawn(here, ponger(pings, pongs, rounds), asio::detached);
  int64_t replies = 0;
  for (int64_t ball = 0; ball < rounds; ++ball) {
    pings.send(ball);
    co_await pongs.receive();
    ++replies;
  }
  co_return replies;
}

// Link n of the chain adds n to the sum it was handed, spawns link n + 1 with the new sum
// on its own executor and ends; the last one sends the sum.
awaitable<void> link(int64_t n, int64_t length, int64_t sum, mailbox<int64_t>& done) {
  sum += n;
  if (n == length) {
    done.send(sum);
  } else {
    asio::co_spawn(co_await asio::this_coro::executor, link(n + 1, length, sum, done),
                   asio::detached);
  }
  co_return;
}

awaitable<int64_t> chain(int64_t length) {
  mailbox<int64_t> done(co_await asio::this_coro::executor);
  asio::co_spawn(contexts->next(), link(1, length, 0, done), asio::detached);
  co_return co_await done.receive();
}

awaitable<int64_t> yielder(int64_t yields) {
  int64_t count = 0;
  for (; count < yields; ++count) {
    co_await asio::post(co_await asio::this_coro::executor, use_awaitable);
  }
  co_return count;
}

// --- socket scenarios (docs/PROTOCOL.md §4: echo, connections) ----------------------------
//
// Asio's TCP types on the contexts' reactors (epoll), as its C++20 coroutine echo server
// (example/cpp20/coroutines/echo_server.cpp) writes them: an acceptor coroutine that
// co_awaits each connection and co_spawns a session coroutine for it, each socket's reads
// and writes co_awaited with use_awaitable. The acceptor stays on the iteration's context
// and accepts each connection onto the next context round-robin (`async_accept(executor)`),
// as HTTP server 2's acceptor deals each new connection to the next io_context; the clients
// are top-level tasks, dealt the same way. A socket is closed when its coroutine ends.

using asio::ip::tcp;

// What an echo server reads at most at once: 64 KiB.
constexpr std::size_t echo_buffer = 64 * 1024;

// The byte client c sends in round r: (c + r) mod 255 + 1, never 0.
std::uint8_t pattern_byte(int64_t c, int64_t r) {
  return static_cast<std::uint8_t>((c + r) % 255 + 1);
}

// Tasks joined by count, as spawn_sum joins its own, for the tasks a socket scenario starts
// one by one (a session per accepted connection, the acceptor, the connections clients):
// `task()` is one more task's co_spawn completion handler, bound to the joiner's executor
// so that the count and sum are only touched there; `wait()` ends once every task counted
// so far has finished and returns the sum of their results.
class join {
 public:
  explicit join(const asio::any_io_executor& here) : finished_(here) {}
  auto task() {
    ++pending_;
    return asio::bind_executor(finished_.get_executor(),
                               [this](std::exception_ptr error, auto... result) {
                                 if (error) std::rethrow_exception(error);
                                 sum_ += (int64_t{0} + ... + result);
                                 if (--pending_ == 0) finished_.notify();
                               });
  }
  awaitable<int64_t> wait() {
    while (pending_ > 0) co_await finished_.wait();
    co_return sum_;
  }

 private:
  condition finished_;
  int64_t pending_ = 0, sum_ = 0;
};

// A one-time "go" for the coroutines of one executor's thread: `wait` ends once `open`,
// called on the same executor, has been.
class gate {
 public:
  explicit gate(const asio::any_io_executor& ex) : opened_(ex) {}
  awaitable<void> wait() {
    while (!open_) co_await opened_.wait();
  }
  void open() {
    open_ = true;
    opened_.notify();
  }
  asio::any_io_executor get_executor() { return opened_.get_executor(); }

 private:
  condition opened_;
  bool open_ = false;
};

// The listener on 127.0.0.1, an ephemeral port, with a backlog of `backlog` (the kernel
// caps it at net.core.somaxconn).
tcp::acceptor open_listener(const asio::any_io_executor& ex, int64_t backlog) {
  const tcp::endpoint endpoint(asio::ip::address_v4::loopback(), 0);
  tcp::acceptor acceptor(ex, endpoint.protocol());
  acceptor.bind(endpoint);
  acceptor.listen(static_cast<int>(backlog));
  return acceptor;
}

// The acceptor task: accepts n connections, each onto the next context, with TCP_NODELAY
// set, and co_spawns session(socket) there, counted in `sessions`; the listener is closed
// once all are accepted.
template <class Session>
awaitable<void> accept_all(tcp::acceptor acceptor, int64_t n, Session session, join& sessions) {
  for (int64_t k = 0; k < n; ++k) {
    const auto ex = contexts->next();
    tcp::socket socket = co_await acceptor.async_accept(ex, use_awaitable);
    socket.set_option(tcp::no_delay(true));
    asio::co_spawn(ex, session(std::move(socket)), sessions.task());
  }
  acceptor.close();
}

// A client's connected socket on its own executor, TCP_NODELAY set.
awaitable<tcp::socket> dial(tcp::endpoint server) {
  tcp::socket socket(co_await asio::this_coro::executor);
  co_await socket.async_connect(server, use_awaitable);
  socket.set_option(tcp::no_delay(true));
  co_return socket;
}

// An echo session: writes back what each read brings until the client closes its end.
awaitable<void> echo_session(tcp::socket socket) {
  auto buffer = std::make_unique<char[]>(echo_buffer);
  for (;;) {
    boost::system::error_code error;
    const std::size_t n = co_await socket.async_read_some(
        asio::buffer(buffer.get(), echo_buffer), asio::redirect_error(use_awaitable, error));
    if (error == asio::error::eof) break;
    if (error) throw boost::system::system_error(error);
    co_await asio::async_write(socket, asio::buffer(buffer.get(), n), use_awaitable);
  }
}

// Echo client c: each round one write of `bytes` bytes of b(c, r), then reads until all are
// back, adding up every byte received; returns that sum.
awaitable<int64_t> echo_client(tcp::endpoint server, int64_t c, int64_t rounds,
                               int64_t bytes) {
  tcp::socket socket = co_await dial(server);
  std::vector<std::uint8_t> out(bytes), in(bytes);
  int64_t sum = 0;
  for (int64_t r = 0; r < rounds; ++r) {
    std::fill(out.begin(), out.end(), pattern_byte(c, r));
    co_await asio::async_write(socket, asio::buffer(out), use_awaitable);
    co_await asio::async_read(socket, asio::buffer(in), use_awaitable);
    for (const std::uint8_t b : in) sum += b;
  }
  co_return sum;
}

awaitable<int64_t> echo(int64_t connections, int64_t rounds, int64_t bytes) {
  const auto here = co_await asio::this_coro::executor;
  tcp::acceptor acceptor = open_listener(here, connections);
  const tcp::endpoint server = acceptor.local_endpoint();
  join sessions(here), acceptor_task(here);
  asio::co_spawn(here, accept_all(std::move(acceptor), connections, echo_session, sessions),
                 acceptor_task.task());
  const int64_t sum = co_await spawn_sum(connections, place::spread, [=](int64_t c) {
    return echo_client(server, c, rounds, bytes);
  });
  co_await acceptor_task.wait();  // every session is counted in `sessions`
  co_await sessions.wait();
  co_return sum;
}

// A held connection's session: waits in a read for the client's one byte, writes it back,
// then waits for the end of the stream.
awaitable<void> hold_session(tcp::socket socket) {
  std::uint8_t one[1];
  co_await asio::async_read(socket, asio::buffer(one), use_awaitable);
  co_await asio::async_write(socket, asio::buffer(one), use_awaitable);
  boost::system::error_code error;
  co_await socket.async_read_some(asio::buffer(one), asio::redirect_error(use_awaitable, error));
  if (error != asio::error::eof) {
    throw boost::system::system_error(error ? error : asio::error::message_size);
  }
}

// A held connection's client c: connects, sends the main task its gate (the "connected"
// message, over a mailbox), waits for the go, then sends b(c, 0), reads it back and
// returns it.
awaitable<int64_t> hold_client(tcp::endpoint server, int64_t c, mailbox<gate*>& connected) {
  tcp::socket socket = co_await dial(server);
  gate go(co_await asio::this_coro::executor);
  connected.send(&go);
  co_await go.wait();
  std::uint8_t one[1] = {pattern_byte(c, 0)};
  co_await asio::async_write(socket, asio::buffer(one), use_awaitable);
  co_await asio::async_read(socket, asio::buffer(one), use_awaitable);
  co_return one[0];
}

// Opens every pair: waits until every client has said it is connected and the acceptor
// has spawned every session, then opens each client's gate on its own executor (the go),
// and joins the clients and the sessions.
awaitable<int64_t> held(int64_t connections) {
  const auto here = co_await asio::this_coro::executor;
  tcp::acceptor acceptor = open_listener(here, connections);
  const tcp::endpoint server = acceptor.local_endpoint();
  join sessions(here), acceptor_task(here), clients(here);
  asio::co_spawn(here, accept_all(std::move(acceptor), connections, hold_session, sessions),
                 acceptor_task.task());
  mailbox<gate*> connected(here);
  for (int64_t c = 0; c < connections; ++c) {
    asio::co_spawn(contexts->next(), hold_client(server, c, connected), clients.task());
  }
  std::vector<gate*> waiting;
  waiting.reserve(connections);
  for (int64_t c = 0; c < connections; ++c) waiting.push_back(co_await connected.receive());
  co_await acceptor_task.wait();
  for (gate* go : waiting) asio::post(go->get_executor(), [go] { go->open(); });
  const int64_t sum = co_await clients.wait();
  co_await sessions.wait();
  co_return sum;
}

// One iteration, run as a task on the first context while the main thread waits for its
// outcome: the program's main coroutine, which deals the top-level tasks, stays on one
// context as HTTP server 2's acceptor does. Dealt round-robin too, each iteration would run
// on the other thread than the one before, and what it allocates (the frame of every task
// it creates, a whole skynet tree) would come from that thread's glibc malloc arena: the
// measured iteration would fault in fresh pages, and each arena would keep a peak.
template <class Body>
protocol::iteration on_pool(Body body) {
  return [body](const protocol::params& p) {
    return asio::co_spawn(contexts->first(), body(p), asio::use_future).get();
  };
}

// The checksum of one iteration that only has a checksum.
awaitable<protocol::outcome> checksum(awaitable<int64_t> sum) {
  co_return protocol::outcome{co_await std::move(sum)};
}

int main(int argc, char** argv) {
  pool threads(thread_count());
  contexts = &threads;
  using P = const protocol::params&;
  const int status = protocol::serve(
      argc, argv,
      {
          {"spawn", on_pool([](P p) {
             return checksum(spawn_sum(p.at("tasks"), place::spread,
                                       [](int64_t i) -> awaitable<int64_t> { co_return i; }));
           })},
          {"sleep", on_pool([](P p) {
             const ms delay(p.at("delay-ms"));
             return checksum(spawn_sum(p.at("tasks"), place::spread,
                                       [=](int64_t i) { return sleeper(i, delay); }));
           })},
          {"timer", on_pool([](P p) { return timer(p.at("step-us"), p.at("total-ms")); })},
          {"doxbee", on_pool([](P p) {
             const ms io(p.at("io-ms"));
             return checksum(spawn_sum(p.at("requests"), place::spread,
                                       [=](int64_t i) { return upload(i, io); }));
           })},
          {"parallel", on_pool([](P p) {
             const ms io(p.at("io-ms"));
             const int64_t fanout = p.at("fanout");
             return checksum(spawn_sum(p.at("requests"), place::spread,
                                       [=](int64_t i) { return fan_out(i, fanout, io); }));
           })},
          {"skynet", on_pool([](P p) { return checksum(skynet(0, p.at("size"))); })},
          {"pingpong", on_pool([](P p) {
             const int64_t rounds = p.at("rounds");
             return checksum(spawn_sum(p.at("pairs"), place::spread,
                                       [=](int64_t) { return pinger(rounds); }));
           })},
          {"chain", on_pool([](P p) { return checksum(chain(p.at("length"))); })},
          {"yield", on_pool([](P p) {
             const int64_t yields = p.at("yields");
             return checksum(spawn_sum(p.at("tasks"), place::spread,
                                       [=](int64_t) { return yielder(yields); }));
           })},
          {"echo", on_pool([](P p) {
             return checksum(echo(p.at("connections"), p.at("rounds"), p.at("bytes")));
           })},
          {"connections", on_pool([](P p) { return checksum(held(p.at("connections"))); })},
      });
  // Exit at once: tearing the contexts down is not part of the workload.
  std::fflush(stdout);
  std::_Exit(status);
}
