package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.partner.PartnerView;
import io.paysession.api.recurrent.DisableRecurrentTokenCommand;
import io.paysession.api.recurrent.RecurrentTokenView;
import io.paysession.api.wire.WireFormat;
import jakarta.servlet.http.HttpServletRequest;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code recurrent/status} and {@code recurrent/disable} (decisions.md section 9): both take
 * {@code {"recurrent":{"token"}}} and answer with the token; a disabled token is {@code is_active:false}
 * with {@code finished_at}, the time it was disabled.
 */
@RestController
public class RecurrentController {

    private final RecurrentTokens tokens;
    private final CommandGateway commands;

    public RecurrentController(RecurrentTokens tokens, CommandGateway commands) {
        this.tokens = tokens;
        this.commands = commands;
    }

    @PostMapping("/api/{version}/recurrent/status")
    public ResponseEntity<ObjectNode> status(@PathVariable String version, HttpServletRequest request) {
        SessionController.version(version);
        return answer(token(request));
    }

    @PostMapping("/api/{version}/recurrent/disable")
    public ResponseEntity<ObjectNode> disable(@PathVariable String version, HttpServletRequest request) {
        SessionController.version(version);
        RecurrentTokenView token = token(request);
        commands.sendAndWait(GenericCommandMessage.asCommandMessage(
                new DisableRecurrentTokenCommand(token.token(), token.project())).andMetaData(RequestMetadata.current()));
        return answer(tokens.find(token.token()).orElseThrow());
    }

    private RecurrentTokenView token(HttpServletRequest request) {
        PartnerView partner = SessionController.partner(request);
        ObjectNode recurrent = Fields.requiredObject(SessionController.body(request), "recurrent", "");
        String token = Fields.requiredText(recurrent, "token", "recurrent");
        return tokens.find(token).filter(found -> found.project().equals(partner.project()))
                .orElseThrow(() -> PaymentsException.invalidRequest("recurrent.token is not a recurrent token of this project"));
    }

    private static ResponseEntity<ObjectNode> answer(RecurrentTokenView token) {
        ObjectNode body = ApiResponses.ok();
        ObjectNode node = body.putObject("recurrent").put("token", token.token())
                .put("created_at", WireFormat.timestamp(token.createdAt()));
        if (!token.active()) {
            node.put("finished_at", WireFormat.timestamp(token.disabledAt()));
        }
        node.put("is_active", token.active()).put("type", "recurrent_token");
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }
}
