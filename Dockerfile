# The web app in a container. Build: docker build -t dreaming-agent .   Run: docker run -p 7860:7860 dreaming-agent
# Same Python as the development venv; an exact tag so a rebuild gets the same base.
ARG PYTHON_IMAGE=python:3.11.7-slim-bookworm

# -- build stage: compilers for llama-cpp-python stay here ---------------------------------------------------
FROM ${PYTHON_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential cmake pkg-config \
 && rm -rf /var/lib/apt/lists/*
# Portable llama.cpp: code tuned to the build machine's CPU could crash on the machine that runs the image.
ENV CMAKE_ARGS="-DGGML_NATIVE=OFF" \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /build
COPY requirements.txt .
# torch from the CPU index first: the default PyPI wheel drags in several GB of CUDA libraries.
RUN pip wheel --wheel-dir /wheels --index-url https://download.pytorch.org/whl/cpu \
      "torch==$(sed -n 's/^torch==//p' requirements.txt)" \
 && pip wheel --wheel-dir /wheels --find-links /wheels -r requirements.txt

# -- runtime stage -----------------------------------------------------------------------------------------
FROM ${PYTHON_IMAGE}
# llama.cpp's CPU backend uses OpenMP at run time.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libgomp1 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /wheels /wheels
COPY requirements.txt /app/requirements.txt
RUN pip install --no-cache-dir --no-index --find-links /wheels -r /app/requirements.txt && rm -rf /wheels

RUN useradd --create-home --uid 1000 dreamer
WORKDIR /app
COPY app.py ./
COPY prompts ./prompts
COPY dreaming_agent ./dreaming_agent
USER dreamer

# Inside the container the app must listen on every interface for -p to reach it; nothing calls home.
ENV GRADIO_SERVER_NAME=0.0.0.0 \
    GRADIO_SERVER_PORT=7860 \
    GRADIO_ANALYTICS_ENABLED=False \
    HF_HUB_DISABLE_TELEMETRY=1 \
    ANONYMIZED_TELEMETRY=False \
    PYTHONUNBUFFERED=1
EXPOSE 7860
CMD ["python", "app.py"]
