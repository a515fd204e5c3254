#ifndef TPLAYER_CCHAFA_SHIM_H
#define TPLAYER_CCHAFA_SHIM_H

// libchafa (libchafa-dev), which draws a picture as terminal text: Unicode block symbols in
// colour, or sixel, kitty or iTerm2 graphics. Loaded with dlopen when the first cover is drawn,
// not linked (nor glib with it), so that a run that never shows one starts as before. Its
// headers need glib's, so the few types used are declared here, opaque, with the values of the
// enums of chafa 1.12 (chafa-common.h, chafa-canvas-config.h, chafa-symbol-map.h).
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
    TP_CHAFA_PIXEL_RGBA8_UNASSOCIATED = 4,
    TP_CHAFA_CANVAS_MODE_TRUECOLOR = 0,
    TP_CHAFA_CANVAS_MODE_INDEXED_256 = 1,
    TP_CHAFA_CANVAS_MODE_INDEXED_16 = 3,
    TP_CHAFA_CANVAS_MODE_FGBG = 5,  // no colours: the picture in the symbols' shapes alone
    TP_CHAFA_PIXEL_MODE_SYMBOLS = 0,
    TP_CHAFA_PIXEL_MODE_SIXELS = 1,
    TP_CHAFA_PIXEL_MODE_KITTY = 2,
    TP_CHAFA_PIXEL_MODE_ITERM2 = 3,
    TP_CHAFA_SYMBOL_TAG_SPACE = 1 << 0,
    TP_CHAFA_SYMBOL_TAG_SOLID = 1 << 1,
    TP_CHAFA_SYMBOL_TAG_BLOCK = 1 << 3,
    TP_CHAFA_SYMBOL_TAG_HALF = (1 << 8) | (1 << 9),
    TP_CHAFA_SYMBOL_TAG_QUAD = 1 << 7,
};

typedef struct tp_chafa_string {  // GString
    char *str;
    size_t len;
    size_t allocated_len;
} tp_chafa_string;

typedef struct tp_chafa {
    void *(*symbol_map_new)(void);
    void (*symbol_map_add_by_tags)(void *, int);
    void (*symbol_map_unref)(void *);
    void *(*config_new)(void);
    void (*config_set_geometry)(void *, int, int);
    void (*config_set_canvas_mode)(void *, int);
    void (*config_set_pixel_mode)(void *, int);
    void (*config_set_symbol_map)(void *, const void *);
    void (*config_set_cell_geometry)(void *, int, int);
    void (*config_set_fg_color)(void *, uint32_t);
    void (*config_set_bg_color)(void *, uint32_t);
    void (*config_unref)(void *);
    void *(*canvas_new)(const void *);
    void (*canvas_draw_all_pixels)(void *, int, const uint8_t *, int, int, int);
    tp_chafa_string *(*canvas_print)(void *, void *);
    void (*canvas_unref)(void *);
    void (*calc_canvas_geometry)(int, int, int *, int *, float, int, int);
    void *(*term_db_get_default)(void);
    void *(*term_db_get_fallback_info)(void *);
    void (*term_info_unref)(void *);
    char *(*string_free)(tp_chafa_string *, int);
    void (*set_n_threads)(int);
} tp_chafa;

/// Loads libchafa and fills `api`; 0 on success, -1 when it or a function is missing.
static inline int tp_chafa_load(tp_chafa *api) {
    void *library = dlopen("libchafa.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) return -1;
#define TP_CHAFA_LOAD(field, symbol) if (!(*(void **)&api->field = dlsym(library, #symbol))) return -1
    TP_CHAFA_LOAD(symbol_map_new, chafa_symbol_map_new);
    TP_CHAFA_LOAD(symbol_map_add_by_tags, chafa_symbol_map_add_by_tags);
    TP_CHAFA_LOAD(symbol_map_unref, chafa_symbol_map_unref);
    TP_CHAFA_LOAD(config_new, chafa_canvas_config_new);
    TP_CHAFA_LOAD(config_set_geometry, chafa_canvas_config_set_geometry);
    TP_CHAFA_LOAD(config_set_canvas_mode, chafa_canvas_config_set_canvas_mode);
    TP_CHAFA_LOAD(config_set_pixel_mode, chafa_canvas_config_set_pixel_mode);
    TP_CHAFA_LOAD(config_set_symbol_map, chafa_canvas_config_set_symbol_map);
    TP_CHAFA_LOAD(config_set_cell_geometry, chafa_canvas_config_set_cell_geometry);
    TP_CHAFA_LOAD(config_set_fg_color, chafa_canvas_config_set_fg_color);
    TP_CHAFA_LOAD(config_set_bg_color, chafa_canvas_config_set_bg_color);
    TP_CHAFA_LOAD(config_unref, chafa_canvas_config_unref);
    TP_CHAFA_LOAD(canvas_new, chafa_canvas_new);
    TP_CHAFA_LOAD(canvas_draw_all_pixels, chafa_canvas_draw_all_pixels);
    TP_CHAFA_LOAD(canvas_print, chafa_canvas_print);
    TP_CHAFA_LOAD(canvas_unref, chafa_canvas_unref);
    TP_CHAFA_LOAD(calc_canvas_geometry, chafa_calc_canvas_geometry);
    TP_CHAFA_LOAD(term_db_get_default, chafa_term_db_get_default);
    TP_CHAFA_LOAD(term_db_get_fallback_info, chafa_term_db_get_fallback_info);
    TP_CHAFA_LOAD(term_info_unref, chafa_term_info_unref);
    TP_CHAFA_LOAD(string_free, g_string_free);  // glib's, which libchafa brings
    TP_CHAFA_LOAD(set_n_threads, chafa_set_n_threads);
#undef TP_CHAFA_LOAD
    return 0;
}

/// Draws `width` × `height` RGBA pixels on a canvas of `columns` × `rows` cells in `pixel_mode`
/// with `canvas_mode`'s colours; the terminal text in `*text` (`*length` bytes; free it with
/// `free`). 0 on success. `dark_on_light`: the terminal's text is dark on a light background (in
/// the FGBG canvas, dark parts are then inked).
static inline int tp_chafa_draw(const tp_chafa *api, const uint8_t *rgba, int width, int height, int columns, int rows,
                                int pixel_mode, int canvas_mode, int dark_on_light, int cell_width, int cell_height, char **text,
                                size_t *length) {
    *text = NULL;
    *length = 0;
    void *map = api->symbol_map_new();
    void *config = api->config_new();
    if (!map || !config) {
        if (map) api->symbol_map_unref(map);
        if (config) api->config_unref(config);
        return -1;
    }
    api->symbol_map_add_by_tags(map, TP_CHAFA_SYMBOL_TAG_BLOCK | TP_CHAFA_SYMBOL_TAG_SPACE | TP_CHAFA_SYMBOL_TAG_SOLID
                                         | TP_CHAFA_SYMBOL_TAG_HALF | TP_CHAFA_SYMBOL_TAG_QUAD);
    api->config_set_geometry(config, columns, rows);
    api->config_set_canvas_mode(config, canvas_mode);
    api->config_set_pixel_mode(config, pixel_mode);
    if (dark_on_light) {
        api->config_set_fg_color(config, 0x000000);
        api->config_set_bg_color(config, 0xFFFFFF);
    }
    api->config_set_symbol_map(config, map);
    if (cell_width > 0 && cell_height > 0) api->config_set_cell_geometry(config, cell_width, cell_height);
    void *canvas = api->canvas_new(config);
    api->config_unref(config);
    api->symbol_map_unref(map);
    if (!canvas) return -1;
    api->canvas_draw_all_pixels(canvas, TP_CHAFA_PIXEL_RGBA8_UNASSOCIATED, rgba, width, height, width * 4);
    // The fallback terminal: every sequence chafa knows, as xterm writes them.
    void *terminal = api->term_db_get_fallback_info(api->term_db_get_default());
    tp_chafa_string *printed = api->canvas_print(canvas, terminal);
    if (terminal) api->term_info_unref(terminal);
    api->canvas_unref(canvas);
    if (!printed) return -1;
    *text = malloc(printed->len + 1);
    if (*text) {
        memcpy(*text, printed->str, printed->len);
        (*text)[printed->len] = 0;
        *length = printed->len;
    }
    api->string_free(printed, 1);
    return *text ? 0 : -1;
}

#endif
