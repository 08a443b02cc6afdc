package attach

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"net/http"

	"github.com/errand-app/errand/backend/llm"
	"golang.org/x/image/draw"
)

// ModelSide is the longest side of an image as the model sees it: larger
// images are downscaled to it (the providers scale further themselves;
// sending more only costs upload and memory).
const ModelSide = 2048

// jpegQuality is the re-encoded photos' quality: text on a screenshot
// stays legible.
const jpegQuality = 85

// modelCopy is the image as the model is sent it: a PNG or JPEG that
// already fits ModelSide as it is; any other (larger, a GIF's first
// frame, a WebP) scaled to fit and re-encoded, as PNG when it has
// transparency and JPEG when it is opaque.
func modelCopy(img image.Image, mimeType string, original []byte) ([]byte, error) {
	b := img.Bounds()
	fits := max(b.Dx(), b.Dy()) <= ModelSide
	if fits && (mimeType == "image/png" || mimeType == "image/jpeg") {
		return original, nil
	}
	if !fits {
		img = scaled(img, ModelSide)
	}
	var out bytes.Buffer
	if opaque(img) {
		err := jpeg.Encode(&out, img, &jpeg.Options{Quality: jpegQuality})
		return out.Bytes(), err
	}
	err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&out, img)
	return out.Bytes(), err
}

// scaled is img fitted within side×side, its proportions kept.
func scaled(img image.Image, side int) image.Image {
	w, h := fit(img.Bounds().Dx(), img.Bounds().Dy(), side)
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.BiLinear.Scale(dst, dst.Bounds(), img, img.Bounds(), draw.Src, nil)
	return dst
}

// fit is w×h scaled down to fit side×side (unchanged when it does).
func fit(w, h, side int) (int, int) {
	if w <= side && h <= side {
		return w, h
	}
	if w >= h {
		return side, max(1, h*side/w)
	}
	return max(1, w*side/h), side
}

func opaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	return false
}

// asImage is a model copy as the model layer takes it.
func asImage(name string, data []byte) llm.Image {
	img := llm.Image{Mime: http.DetectContentType(data), Data: data, Name: name}
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
		img.Width, img.Height = cfg.Width, cfg.Height
	}
	return img
}

// forModel is an image's model copy made from its encoded content,
// refused when it is not an image the model takes or is a bomb.
func forModel(name string, data []byte) (llm.Image, error) {
	a, err := checkImage(chatAttachment(name), data)
	if err != nil {
		return llm.Image{}, err
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return llm.Image{}, err
	}
	small, err := modelCopy(img, a.Mime, data)
	if err != nil {
		return llm.Image{}, err
	}
	return asImage(name, small), nil
}
