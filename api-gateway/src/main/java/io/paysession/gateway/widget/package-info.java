/**
 * The card-tokenizer widget: the script and stylesheet partners load from {@code /widget/}, the frame the payer
 * types the card number into (a page of the service's own origin, so the partner's page cannot read it), and a
 * demo page. The frame tokenizes through {@code POST /cds/v1/tokenize/card} with the public token.
 */
package io.paysession.gateway.widget;
