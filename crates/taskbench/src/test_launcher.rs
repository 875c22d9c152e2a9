//! The unit tests' binary is a launcher too (measure/launcher.rs `launch_if_asked`): its
//! `main` is the test runner's, so the check runs before it, from `.init_array`.

#[used]
#[unsafe(link_section = ".init_array")]
static LAUNCH_IF_ASKED: extern "C" fn() = measure::launcher::launch_if_asked;
