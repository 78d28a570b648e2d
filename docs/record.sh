#!/usr/bin/env bash
# Records docs/shooter.gif, the animation at the top of the README: the shooter's storm wave
# (wave 5), flown by the autopilot in a real window, one PNG per frame, joined by ffmpeg.
#
#     docs/record.sh
#
# Needs ffmpeg. With no display (no DISPLAY or WAYLAND_DISPLAY) it opens the window in Xvfb,
# with Mesa's software Vulkan driver where it is installed (Debian: xvfb mesa-vulkan-drivers).
# The game steps 1/30 s per frame however slowly the frames are drawn, so the animation plays
# at the game's own speed.
set -euo pipefail
cd "$(dirname "$0")/.."

# The rings fill the screen about four seconds into the wave; three seconds from there.
FIRST_FRAME=150
LAST_FRAME=240
OUTPUT=docs/shooter.gif
# The GIF: its width, frames per second and colours (a GIF of ten thousand moving dots is
# large: these keep it under 3 MB).
WIDTH=640
GIF_FRAME_RATE=12
GIF_COLORS=24

frames=$(mktemp -d)
trap 'rm -rf "$frames"' EXIT

cargo build --release --example shooter
shooter=(target/release/examples/shooter --autopilot --wave 5
    --record "$frames" --record-from "$FIRST_FRAME" --frames "$LAST_FRAME")
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
    lavapipe=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
    if [[ -f $lavapipe ]]; then
        export VK_ICD_FILENAMES=$lavapipe
    fi
    xvfb-run -a -s "-screen 0 1280x720x24" "${shooter[@]}"
else
    "${shooter[@]}"
fi

# Half size, one palette for the whole animation.
ffmpeg -loglevel error -y -framerate 30 -i "$frames/frame%05d.png" -vf \
    "fps=$GIF_FRAME_RATE,scale=$WIDTH:-1:flags=lanczos,split[a][b];[a]palettegen=max_colors=$GIF_COLORS:stats_mode=full[p];[b][p]paletteuse=dither=none:diff_mode=rectangle" \
    -loop 0 "$OUTPUT"
echo "wrote $OUTPUT ($(du -h "$OUTPUT" | cut -f1))"
