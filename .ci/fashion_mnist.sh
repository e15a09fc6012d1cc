#!/bin/sh
# Debian's dataset-fashion-mnist (IDX files in /usr/share/datasets/fashion-mnist), the offline
# stand-in for MNIST: installed with apt-get when missing and allowed (root, apt-get present).
# Otherwise this says so and exits 0: the tests and experiments that read it skip with a message.
DIR=/usr/share/datasets/fashion-mnist
[ -f "$DIR/train-images-idx3-ubyte.gz" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    if apt-get install -y -q dataset-fashion-mnist >/dev/null 2>&1 \
        || { apt-get update -q >/dev/null 2>&1 \
             && apt-get install -y -q dataset-fashion-mnist >/dev/null 2>&1; }; then
        exit 0
    fi
    echo "fashion-mnist: apt-get could not install dataset-fashion-mnist; its tests are skipped" >&2
else
    echo "fashion-mnist: dataset-fashion-mnist is missing (installing it needs root and apt-get);" \
        "its tests are skipped" >&2
fi
exit 0
