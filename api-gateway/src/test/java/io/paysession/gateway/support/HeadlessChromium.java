package io.paysession.gateway.support;

import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Debian's Chromium, headless, driven through Debian's ChromeDriver. Both binaries are named explicitly,
 * so Selenium Manager never runs: it would download a driver or a browser, which this network refuses and
 * CI must not depend on. Without them the calling test is skipped (CI installs them in {@code .ci/run}).
 */
public final class HeadlessChromium implements AutoCloseable {

    public static final Path BROWSER = Path.of("/usr/bin/chromium");
    public static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    /** Relative to the module directory, where Surefire runs; cleaned with {@code target}. */
    public static final Path SCREENSHOTS = Path.of("target/screenshots");
    private static final Duration PAGE_LOAD_TIMEOUT = Duration.ofSeconds(10);
    /**
     * These tests speak WebDriver only. At every start Selenium looks for its DevTools (CDP) binding of the
     * browser's version, which selenium-chrome-driver does not bring, and warns; kept in a field because
     * java.util.logging holds loggers weakly and would forget the level.
     */
    private static final Logger CDP_VERSION_FINDER = quiet("org.openqa.selenium.devtools.CdpVersionFinder");

    private final ChromeDriverService service;
    private final ChromeDriver driver;
    private final Path profile;

    private HeadlessChromium(ChromeDriverService service, ChromeDriver driver, Path profile) {
        this.service = service;
        this.driver = driver;
        this.profile = profile;
    }

    /** Skips the calling test (a JUnit assumption) unless both binaries are installed. */
    public static void assumeInstalled() {
        assumeTrue(Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER),
                "browser test skipped: needs Debian's Chromium and ChromeDriver at " + BROWSER + " and " + DRIVER
                        + "; install them with: sudo apt-get install -y chromium chromium-driver (.ci/run does)");
    }

    public static HeadlessChromium start() {
        assumeInstalled();
        Path profile = createProfileDirectory();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        options.addArguments(
                "--headless",
                // CI and this machine run as root, where Chromium's sandbox cannot start
                "--no-sandbox",
                "--disable-gpu",
                // the machine's network is closed: without these Chromium keeps opening refused connections
                "--disable-quic",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                // a fresh profile each time, so no state leaks between runs
                "--user-data-dir=" + profile,
                // a small /dev/shm in containers crashes renderers; Debian's launcher only sometimes adds it
                "--disable-dev-shm-usage",
                // a fixed size makes screenshots comparable
                "--window-size=1024,768");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .build();
        try {
            ChromeDriver driver = new ChromeDriver(service, options);
            driver.manage().timeouts().pageLoadTimeout(PAGE_LOAD_TIMEOUT);
            return new HeadlessChromium(service, driver, profile);
        } catch (RuntimeException e) {
            // the browser did not come up: leave no chromedriver and no profile behind
            service.stop();
            deleteRecursively(profile);
            throw e;
        }
    }

    public WebDriver driver() {
        return driver;
    }

    /** An explicit wait whose timeout message tells where the browser was and what it showed. */
    public WebDriverWait waitUpTo(Duration timeout) {
        WebDriverWait wait = new WebDriverWait(driver, timeout);
        wait.withMessage(() -> "page " + driver.getCurrentUrl() + " shows: "
                + driver.findElements(By.tagName("body")).stream().map(body -> body.getText()).findFirst().orElse("(no body)"));
        return wait;
    }

    /** The visible part of the page as {@code target/screenshots/<name>.png}. */
    public Path screenshot(String name) {
        Path target = SCREENSHOTS.resolve(name + ".png");
        try {
            Files.createDirectories(SCREENSHOTS);
            Files.write(target, driver.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return target;
    }

    /** Quits the browser and its driver, also when the session broke, and removes the profile. */
    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
            deleteRecursively(profile);
        }
    }

    private static Logger quiet(String name) {
        Logger logger = Logger.getLogger(name);
        logger.setLevel(Level.SEVERE);
        return logger;
    }

    private static Path createProfileDirectory() {
        try {
            return Files.createTempDirectory("chromium-profile-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteRecursively(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a left-over temporary profile is harmless; the test's outcome matters more
        }
    }
}
