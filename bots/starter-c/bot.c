/*
 * starter-c: a Mandala Arena bot in plain C (standard library only).
 *
 * Copy this folder, rename the bot in bot.toml, and change choose_move() below.
 * The arena builds it once with `cc -O2 -o bot bot.c` and runs `./bot` in this folder.
 * The whole protocol is described in bots/README.md. In short:
 *   - the referee writes one JSON object per line to our stdin;
 *   - we answer some of them with one JSON object per line on stdout, and flush;
 *   - anything we print to stderr goes to our log file;
 *   - lines can be long (a few kilobytes), so the line buffer grows as needed.
 *
 * There is no JSON library in standard C, so this file has a tiny read-only JSON
 * navigator: it never builds a tree, it only walks the text of one line to find a key
 * or the n-th item of an array. That is all a bot needs to read the referee's messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "starter-c"

/* Mandala's six colours, in the order the protocol always uses. */
static const char *COLOURS[6] = {"black", "green", "orange", "purple", "red", "yellow"};

/* Which game we are playing: the referee names it in "hello" and "new_game" ("mandala",
 * "flowers" or "takenoko"); choose_move() hands the decision to that game's function. */
static char game[32] = "mandala";

/* ---- Reading one line of any length ------------------------------------------------ */

/* Read one line from stdin into *buf (grown with realloc as needed), without the '\n'.
 * Returns 0 at end of input. */
static int read_line(char **buf, size_t *cap) {
    size_t len = 0;
    int c;
    while ((c = getchar()) != EOF && c != '\n') {
        if (len + 1 >= *cap) {
            *cap = *cap ? *cap * 2 : 4096;
            *buf = realloc(*buf, *cap);
            if (!*buf) { fprintf(stderr, NAME ": out of memory\n"); exit(1); }
        }
        (*buf)[len++] = (char)c;
    }
    if (c == EOF && len == 0) return 0;
    if (!*buf) { *cap = 1; *buf = malloc(1); }
    (*buf)[len] = '\0';
    return 1;
}

/* ---- A tiny JSON navigator ---------------------------------------------------------
 * Every function takes a pointer into the line and returns a pointer into the line,
 * or NULL when what was asked for is not there. */

static const char *skip_ws(const char *p) {
    while (p && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) p++;
    return p;
}

/* Skip one JSON value (string, number, object, array, true/false/null); return what follows. */
static const char *skip_value(const char *p) {
    p = skip_ws(p);
    if (!p || !*p) return NULL;
    if (*p == '"') {                       /* a string: stop at the unescaped quote */
        for (p++; *p && *p != '"'; p++)
            if (*p == '\\' && p[1]) p++;
        return *p ? p + 1 : NULL;
    }
    if (*p == '{' || *p == '[') {          /* an object or array: match brackets */
        int depth = 0;
        for (; *p; p++) {
            if (*p == '"') { p = skip_value(p); if (!p) return NULL; p--; continue; }
            if (*p == '{' || *p == '[') depth++;
            if (*p == '}' || *p == ']') { if (--depth == 0) return p + 1; }
        }
        return NULL;
    }
    while (*p && !strchr(",}] \t\r\n", *p)) p++;  /* number, literal */
    return p;
}

/* In the object at `obj` ('{'), the value of member `key`, or NULL. */
static const char *get(const char *obj, const char *key) {
    size_t n = strlen(key);
    obj = skip_ws(obj);
    if (!obj || *obj != '{') return NULL;
    const char *p = skip_ws(obj + 1);
    while (p && *p == '"') {
        const char *name = p + 1;
        const char *after = skip_value(p);       /* past the key's closing quote */
        if (!after) return NULL;
        p = skip_ws(after);
        if (*p != ':') return NULL;
        p = skip_ws(p + 1);                       /* the member's value */
        if ((size_t)(after - 1 - name) == n && strncmp(name, key, n) == 0) return p;
        p = skip_ws(skip_value(p));
        if (!p || *p != ',') return NULL;
        p = skip_ws(p + 1);
    }
    return NULL;
}

/* In the array at `arr` ('['), the item number `i` (from 0), or NULL. */
static const char *item(const char *arr, int i) {
    arr = skip_ws(arr);
    if (!arr || *arr != '[') return NULL;
    const char *p = skip_ws(arr + 1);
    if (*p == ']') return NULL;
    for (; i > 0; i--) {
        p = skip_ws(skip_value(p));
        if (!p || *p != ',') return NULL;
        p = skip_ws(p + 1);
    }
    return p;
}

/* How many items the array at `arr` holds. */
static int count(const char *arr) {
    int n = 0;
    while (item(arr, n)) n++;
    return n;
}

/* Is the value at `p` the JSON string `s`? (Our keys and colour names have no escapes.) */
static int is_string(const char *p, const char *s) {
    size_t n = strlen(s);
    p = skip_ws(p);
    return p && *p == '"' && strncmp(p + 1, s, n) == 0 && p[n + 1] == '"';
}

/* The integer at `p`, or `otherwise` when there is none. */
static long number(const char *p, long otherwise) {
    p = skip_ws(p);
    return (p && (*p == '-' || (*p >= '0' && *p <= '9'))) ? strtol(p, NULL, 10) : otherwise;
}

/* Copy the string value at `p` into out (at most size-1 characters). */
static void copy_string(const char *p, char *out, size_t size) {
    size_t n = 0;
    p = skip_ws(p);
    if (p && *p == '"')
        for (p++; *p && *p != '"' && n + 1 < size; p++) out[n++] = *p;
    out[n] = '\0';
}

/* Does the array at `arr` hold the string `s`? */
static int has_string(const char *arr, const char *s) {
    for (int i = 0; item(arr, i); i++)
        if (is_string(item(arr, i), s)) return 1;
    return 0;
}

/* ---- Flowers (2-4 players) ----------------------------------------------------------
 * "decision" is "turn" (play cards: {"action":"play","mandala":0,"colour":"red","count":1})
 * or "tile" (we hold the claim marker of a Mandala being destroyed and take one of its two
 * tiles: {"action":"take","colour":"red"}). Tiles are named "red 5" or "red x3". */
static int choose_flowers_move(const char *request) {
    const char *view = get(request, "view");
    const char *moves = get(request, "legal_moves");
    const char *mandalas = get(view, "mandalas");
    int n = count(moves), best = -1, seat = (int)number(get(view, "seat"), 0);
    long best_value = 0;
    char colour[16], tile[32];

    if (is_string(get(request, "decision"), "tile")) {
        /* Take the tile that makes a Flower with one of our single tiles (same colour);
         * otherwise the one with the higher number ("x3" counts 0 on its own). */
        long which = number(get(get(view, "destroying"), "mandala"), 0);
        const char *tiles = get(item(mandalas, (int)which), "tiles");
        const char *singles = get(item(get(view, "players"), seat), "singles");
        for (int i = 0; i < n; i++) {
            copy_string(get(item(moves, i), "colour"), colour, sizeof colour);
            long value = 0;
            for (int t = 0; item(tiles, t); t++) {
                copy_string(item(tiles, t), tile, sizeof tile);
                size_t len = strlen(colour);
                if (strncmp(tile, colour, len) == 0 && tile[len] == ' ')
                    value = atol(tile + len + 1);   /* "x3" reads as 0 */
            }
            for (int t = 0; item(singles, t); t++) {
                copy_string(item(singles, t), tile, sizeof tile);
                size_t len = strlen(colour);
                if (strncmp(tile, colour, len) == 0 && tile[len] == ' ') value += 10;
            }
            if (best < 0 || value > best_value) { best = i; best_value = value; }
        }
        return best < 0 ? 0 : best;
    }

    /* Our turn. Play a single card (we then draw up to 4) of a colour that is new in its
     * Mandala ("colours" lists those present), so it lies face up and counts for the
     * claim marker; prefer the Mandala where we already have the most cards. */
    for (int i = 0; i < n; i++) {
        const char *move = item(moves, i);
        if (number(get(move, "count"), 0) != 1) continue;
        const char *mandala = item(mandalas, (int)number(get(move, "mandala"), 0));
        copy_string(get(move, "colour"), colour, sizeof colour);
        if (has_string(get(mandala, "colours"), colour)) continue;  /* would go face down */
        long ours = number(get(item(get(mandala, "sides"), seat), "cards"), 0);
        if (best < 0 || ours > best_value) { best = i; best_value = ours; }
    }
    if (best >= 0) return best;
    for (int i = 0; i < n; i++)                 /* otherwise any single card */
        if (number(get(item(moves, i), "count"), 0) == 1) return i;
    return 0;                                   /* failing that, the first legal move */
}

/* ---- Takenoko (2-4 players) ---------------------------------------------------------
 * A turn is a row of small decisions ("decision" is "turn", "weather", "plot", "panda",
 * "objective" ...), each with its own legal_moves, such as {"action":"panda"} or
 * {"action":"move_panda","to":[1,0]}. Cells are [q, r]; view.board.tiles lists every tile
 * with its cell "at", its "bamboo" (a number of sections) and its "improvement". */

/* The index of the first move whose member `key` is the string `value`, or -1. */
static int find_move(const char *moves, const char *key, const char *value) {
    for (int i = 0; item(moves, i); i++)
        if (is_string(get(item(moves, i), key), value)) return i;
    return -1;
}

/* The tile at cell `to` in view.board.tiles, or NULL. */
static const char *tile_at(const char *tiles, const char *to) {
    long q = number(item(to, 0), 0), r = number(item(to, 1), 0);
    for (int t = 0; item(tiles, t); t++) {
        const char *tile = item(tiles, t), *at = get(tile, "at");
        if (number(item(at, 0), 999) == q && number(item(at, 1), 999) == r) return tile;
    }
    return NULL;
}

static int choose_takenoko_move(const char *request) {
    const char *moves = get(request, "legal_moves");
    const char *decision = get(request, "decision");
    int best = find_move(moves, "action", "complete");   /* a card that holds scores now */
    if (best >= 0) return best;
    if (is_string(decision, "turn")) {
        /* Draw a card while the hand has room; then feed the panda, grow bamboo, add plots. */
        static const char *KINDS[4] = {"objective", "panda", "gardener", "plot"};
        for (int k = 0; k < 4 && best < 0; k++) best = find_move(moves, "action", KINDS[k]);
    } else if (is_string(decision, "objective")) {
        /* Panda cards need only the panda to eat; gardener cards, bamboo to grow. */
        best = find_move(moves, "deck", "panda");
        if (best < 0) best = find_move(moves, "deck", "gardener");
    } else if (is_string(decision, "panda") || is_string(decision, "gardener")) {
        /* The panda goes where the bamboo is tallest (it eats a section there, unless an
         * enclosure guards it); the gardener where it is tallest but still below 4
         * sections (it grows one there). */
        const char *tiles = get(get(get(request, "view"), "board"), "tiles");
        int gardener = is_string(decision, "gardener");
        long most = -2;
        for (int i = 0; item(moves, i); i++) {
            const char *to = get(item(moves, i), "to");
            const char *tile = to ? tile_at(tiles, to) : NULL;
            long sections = tile ? number(get(tile, "bamboo"), 0) : -2;
            if (gardener && sections >= 4) sections = -1;            /* full grown */
            if (!gardener && is_string(get(tile, "improvement"), "enclosure"))
                sections = 0;                                        /* it cannot eat here */
            if (sections > most) { best = i; most = sections; }
        }
    } else if (is_string(decision, "weather")) {
        best = find_move(moves, "face", "SUN");     /* the Sun gives a third action */
    }
    return best < 0 ? 0 : best;                 /* otherwise the first legal move */
}

/* ---- Mandala (2 players) ------------------------------------------------------------
 * `request` is the whole "decide" line. Its members:
 *   "decision"     "turn" (our turn) or "claim" (a Mandala is being destroyed)
 *   "view"         everything we can see: "hand", "mandalas", "players", "destroying" ...
 *   "legal_moves"  the moves we may play, e.g. {"action": "claim", "colour": "red"}
 * We answer with the index of a move in legal_moves. */
static int choose_mandala_move(const char *request) {
    const char *view = get(request, "view");
    const char *moves = get(request, "legal_moves");
    int n = count(moves), best = -1;
    long best_cards = 0;
    char colour[16];

    if (is_string(get(request, "decision"), "claim")) {
        /* A Mandala is being destroyed: claim the colour with most cards in its Mountain.
         * view.destroying.mandala says which one; view.mandalas[i].mountain counts cards. */
        long which = number(get(get(view, "destroying"), "mandala"), 0);
        const char *mountain = get(item(get(view, "mandalas"), (int)which), "mountain");
        for (int i = 0; i < n; i++) {
            copy_string(get(item(moves, i), "colour"), colour, sizeof colour);
            long cards = number(get(mountain, colour), 0);
            if (best < 0 || cards > best_cards) { best = i; best_cards = cards; }
        }
        return best < 0 ? 0 : best;
    }

    /* Our turn. If our own Field in a Mandala is still empty, grow it with 3 or more cards
     * of one colour: only a player with cards in their Field keeps what they claim, and the
     * bigger Field claims first. Our Field is view.mandalas[m].fields[view.seat]. */
    int seat = (int)number(get(view, "seat"), 0);
    for (int i = 0; i < n; i++) {
        const char *move = item(moves, i);
        if (!is_string(get(move, "action"), "grow_field")) continue;
        long cards = number(get(move, "count"), 0);
        int m = (int)number(get(move, "mandala"), 0);
        const char *field = item(get(item(get(view, "mandalas"), m), "fields"), seat);
        long in_field = 0;
        for (int c = 0; c < 6; c++) in_field += number(get(field, COLOURS[c]), 0);
        if (cards >= 3 && in_field == 0 && cards > best_cards) { best = i; best_cards = cards; }
    }
    if (best >= 0) return best;

    /* Otherwise build a Mountain (it refills our hand) with the colour we hold fewest of
     * in view.hand; many cards of one colour are better kept to grow a Field later. */
    const char *hand = get(view, "hand");
    for (int i = 0; i < n; i++) {
        const char *move = item(moves, i);
        if (!is_string(get(move, "action"), "build_mountain")) continue;
        copy_string(get(move, "colour"), colour, sizeof colour);
        long cards = number(get(hand, colour), 0);
        if (best < 0 || cards < best_cards) { best = i; best_cards = cards; }
    }
    /* No Mountain accepts any of our colours (the Rule of Color): the first legal move. */
    return best < 0 ? 0 : best;
}

/* Choose a move for whatever game we are playing. */
static int choose_move(const char *request) {
    if (strcmp(game, "flowers") == 0) return choose_flowers_move(request);
    if (strcmp(game, "mandala") == 0) return choose_mandala_move(request);
    if (strcmp(game, "takenoko") == 0) return choose_takenoko_move(request);
    return 0;   /* a game this bot does not know: the first legal move is always legal */
}

/* ---- The main loop ------------------------------------------------------------------ */
int main(void) {
    char *line = NULL;
    size_t cap = 0;

    while (read_line(&line, &cap)) {
        const char *type = get(line, "type");
        if (!type) continue;                       /* not a JSON object we understand */

        if (is_string(type, "hello")) {
            /* The handshake: the referee names the game; answer with our name. */
            if (get(line, "game")) copy_string(get(line, "game"), game, sizeof game);
            printf("{\"type\":\"hello\",\"name\":\"" NAME "\",\"version\":\"1.0\"}\n");
        } else if (is_string(type, "decide")) {
            /* Answer with a move index, and echo the request's "id" (protocol 2). */
            char id[64] = "";
            copy_string(get(line, "id"), id, sizeof id);
            printf("{\"type\":\"move\",\"move\":%d,\"id\":\"%s\"}\n", choose_move(line), id);
        } else if (is_string(type, "new_game")) {
            /* A new game: our seat is in "seat" (0 moves first), the game in "game". */
            if (get(line, "game")) copy_string(get(line, "game"), game, sizeof game);
            fprintf(stderr, NAME ": new %s game, seat %ld\n", game, number(get(line, "seat"), -1));
        } else if (is_string(type, "goodbye")) {
            break;
        }
        /* game_over and unknown message types need no reply. */
        fflush(stdout);                            /* every reply must leave at once */
    }
    free(line);
    return 0;
}
