package io.paysession.gateway.support;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One headless Chromium for a test class: {@code @RegisterExtension static final OneBrowser BROWSER = new OneBrowser();}.
 * Started before the class's first test (so that a missing browser skips each test visibly, as
 * {@link HeadlessChromium#start} assumes), closed after its last.
 */
public final class OneBrowser implements BeforeEachCallback, AfterAllCallback {

    private HeadlessChromium browser;

    @Override
    public void beforeEach(ExtensionContext context) {
        if (browser == null) {
            browser = HeadlessChromium.start();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (browser != null) {
            browser.close();
            browser = null;
        }
    }

    public HeadlessChromium get() {
        return browser;
    }
}
